// Plain C++ functions, compiled natively by the app and lifted to kernels at build time.
#pragma once

#include <culift/annotate.hpp>

#include "signal_math.hpp"

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
