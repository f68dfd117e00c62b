// Column reductions shared by a middle axis (the loop planner's "column reduction shared by a
// middle axis"): f(b, m, s) whose loop does not use m runs the loop once per column (b, s) and the
// statements after it for every m. gpu_plan_tests.cpp checks every entry against the per-thread
// entry and the CPU backend.
#pragma once

#include <cmath>

#include <culift/annotate.hpp>

// RMS norm over dim 1 of (B, F, S) in one function.
CULIFT_KERNEL_INDEX(b, f, s)
inline float RmsNormOne(const float* x, int F, int S, float eps, int b, int f, int s) {
  float sum = 0.0f;
  for (int g = 0; g < F; ++g) {
    const float v = x[(b * F + g) * S + s];
    sum += v * v;
  }
  return x[(b * F + f) * S + s] / std::sqrt(sum / (float)F + eps);
}

// A weighted column mean in doubles, a local set before the loop, and two returns after it.
CULIFT_KERNEL_INDEX(b, m, c)
inline double CenteredSq(const double* x, const double* w, int M, int C, int b, int m, int c) {
  const int base = b * M * C + c;
  double s = 0.0;
  for (int k = 0; k < M; ++k) s += w[k] * x[base + k * C];
  const double d = x[base + m * C] - s / M;
  if (d < 0.0) return -d;
  return d * d;
}

// The column's maximum from its first element on, then x - max for every element (softmax's
// shift; without the exponential, whose last bit the GPU and the CPU need not agree on).
CULIFT_KERNEL_INDEX(b, m, c) inline float ColumnShift(const float* x, int M, int C, int b, int m, int c) {
  float best = x[b * M * C + c];
  for (int k = 1; k < M; ++k) best = std::fmax(best, x[(b * M + k) * C + c]);
  return x[(b * M + m) * C + c] - best;
}

// The element read twice after the loop (one stash serves both reads), and a sum that may be 0.
CULIFT_KERNEL_INDEX(b, f, s) inline float SquareOverSum(const float* x, int F, int S, int b, int f, int s) {
  float sum = 0.0f;
  for (int g = 0; g < F; ++g) sum += x[(b * F + g) * S + s];
  return x[(b * F + f) * S + s] * x[(b * F + f) * S + s] / sum;
}
