// Reductions over a middle axis written the natural way, one output per call: the benchmark's
// column rows. Lifted by culift (the loop planner's column reduction: one thread per output, the
// loads of several iterations in flight) and compiled natively as the reference.
#pragma once

#include <cmath>

#include <culift/annotate.hpp>

// x.sum(1) of a (d0, d1, d2) row-major tensor, one output (i, j) of the (d0, d2) result.
CULIFT_KERNEL inline float ColumnSum(const float* x, int d1, int d2, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < d1; ++k) sum += x[(i * d1 + k) * d2 + j];
  return sum;
}

// RMS norm over dim 1 of a (B, F, S) tensor, in two passes. First the root mean square of the
// column (b, s) over f: sqrt(mean(x^2) + eps).
CULIFT_KERNEL_INDEX(b, s) inline float RmsOverF(const float* x, int F, int S, float eps, int b, int s) {
  float sum = 0.0f;
  for (int f = 0; f < F; ++f) {
    const float v = x[(b * F + f) * S + s];
    sum += v * v;
  }
  return std::sqrt(sum / (float)F + eps);
}

// Then every element divided by its column's root mean square.
CULIFT_KERNEL_INDEX(b, f, s)
inline float RmsNormalize(const float* x, const float* rms, int F, int S, int b, int f, int s) {
  return x[(b * F + f) * S + s] / rms[b * S + s];
}

// RMS norm in one function, as one output's formula: its column's root mean square over f, then
// its element divided by it (the loop planner runs the loop once per column, the division for
// every f of it).
CULIFT_KERNEL_INDEX(b, f, s)
inline float RmsNorm(const float* x, int F, int S, float eps, int b, int f, int s) {
  float sum = 0.0f;
  for (int g = 0; g < F; ++g) {
    const float v = x[(b * F + g) * S + s];
    sum += v * v;
  }
  return x[(b * F + f) * S + s] / std::sqrt(sum / (float)F + eps);
}
