// Plain C++ functions, compiled natively by the app and lifted to kernels at build time.
#pragma once

#include <culift/annotate.hpp>

#include "signal_math.hpp"

// The app's build defines it (target_compile_definitions), and culift_add_kernels translates
// with the target's definitions: the kernels and the native build then agree on 3, where a
// translation without them would see 1 and the app's check would fail.
#ifndef HOST_APP_SCALE
#define HOST_APP_SCALE 1
#endif

// The mean of row i of a rows x cols matrix: a 1-D kernel with a row reduction.
CULIFT_KERNEL inline float RowMean(const float* x, int cols, int i) {
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) sum += x[i * cols + k];
  return sum / static_cast<float>(cols);
}

// Each sample scaled and clipped: an element-wise kernel, `gain` the same for every element.
CULIFT_KERNEL CULIFT_UNIFORM(gain) inline float Amplify(float sample, float gain) {
  return clip(gain * sample * HOST_APP_SCALE, 10.0f);
}
