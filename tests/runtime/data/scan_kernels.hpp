// Kernels whose loops write as they go: the scan plan. gpu_plan_tests.cpp runs every entry of
// each against its per-thread entry and the CPU backend, bit for bit under strict math.
#pragma once

#include <algorithm>
#include <cmath>

#include <culift/annotate.hpp>

// A running sum of each row.
CULIFT_KERNEL inline void CumSum(const float* x, float* out, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) {
    s += x[i * n + k];
    out[i * n + k] = s;
  }
}

// A running product, in double (16-element tiles).
CULIFT_KERNEL inline void CumProd(const double* x, double* out, int n, int i) {
  double p = 1.0;
  for (int k = 0; k < n; ++k) {
    p = p * (1.0 + 0.5 * x[(long long)i * n + k]);
    out[(long long)i * n + k] = p;
  }
}

// A running maximum, from the row's first element.
CULIFT_KERNEL inline void CumMax(const float* x, float* out, int n, int i) {
  float m = -INFINITY;
  for (int k = 0; k < n; ++k) {
    m = std::max(m, x[i * n + k]);
    out[i * n + k] = m;
  }
}

// Two written arrays, two read ones, rows that return before the loop, a value after it; the
// counter read in the body.
CULIFT_KERNEL inline float TwoOut(const float* x, const float* w, float* lo, float* hi, int n, int i) {
  if (i % 7 == 3) return -1.0f;
  const int row = i * n;
  float a = 0.0f, b = n > 0 ? x[row] : 1.0f;
  for (int k = 0; k < n; ++k) {
    a = a * 0.5f + x[row + k] * w[row + k];
    b = std::min(b, a - (float)k);
    lo[row + k] = b;
    hi[row + k] = a;
  }
  return a + b;
}
