// Reductions over long rows written the natural way, one output per call: the benchmark's
// few-long-rows and softmax rows. The sums may be added in another order
// (CULIFT_KERNEL_REASSOCIATE): few rows take the split-row entries, many a warp per row. Compiled
// natively as the reference.
#pragma once

#include <culift/annotate.hpp>

#include <algorithm>
#include <cmath>

// The sum of row i of x (rows x n, row-major).
CULIFT_KERNEL_REASSOCIATE inline float LongRowSum(const float* x, long long n, int i) {
  float s = 0.0f;
  for (long long k = 0; k < n; ++k) s += x[i * n + k];
  return s;
}

// The row's sum of squares: with LongRowSum, the statistics of a one-pass variance. The two take
// the same parameters and loop, so a pipeline launching them side by side runs their fused kernel.
CULIFT_KERNEL_REASSOCIATE inline float LongRowSumSq(const float* x, long long n, int i) {
  float s = 0.0f;
  for (long long k = 0; k < n; ++k) {
    const float v = x[i * n + k];
    s += v * v;
  }
  return s;
}

// Layer norm without affine parameters, as three plain functions: the row's mean, its variance
// (about that mean), then each element normalized.
CULIFT_KERNEL_REASSOCIATE inline float RowMean(const float* x, long long n, int i) {
  float s = 0.0f;
  for (long long k = 0; k < n; ++k) s += x[i * n + k];
  return s / static_cast<float>(n);
}

CULIFT_KERNEL_REASSOCIATE inline float RowVariance(const float* x, const float* mean, long long n, int i) {
  const float m = mean[i];
  float s = 0.0f;
  for (long long k = 0; k < n; ++k) {
    const float d = x[i * n + k] - m;
    s += d * d;
  }
  return s / static_cast<float>(n);
}

CULIFT_KERNEL inline float LayerNormalize(const float* x, const float* mean, const float* variance, long long n, int i,
                                          int j) {
  return (x[i * n + j] - mean[i]) / std::sqrt(variance[i] + 1e-5f);
}

// y = A v, one row of a long matrix (rows x n, row-major).
CULIFT_KERNEL_REASSOCIATE inline float LongMatVec(const float* A, const float* v, long long n, int i) {
  float s = 0.0f;
  for (long long k = 0; k < n; ++k) s += A[i * n + k] * v[k];
  return s;
}

// Softmax along rows, as three plain functions: the row's maximum, the sum of exp(x - max), then
// each element divided by it.
CULIFT_KERNEL_REASSOCIATE inline float RowMax(const float* x, long long n, int i) {
  float m = -INFINITY;
  for (long long k = 0; k < n; ++k) m = std::max(m, x[i * n + k]);
  return m;
}

CULIFT_KERNEL_REASSOCIATE inline float RowSumExp(const float* x, const float* max, long long n, int i) {
  const float m = max[i];
  float s = 0.0f;
  for (long long k = 0; k < n; ++k) s += std::exp(x[i * n + k] - m);
  return s;
}

CULIFT_KERNEL inline float SoftmaxNormalize(const float* x, const float* max, const float* sum, long long n, int i,
                                            int j) {
  return std::exp(x[i * n + j] - max[i]) / sum[i];
}

// A running sum along each row (torch.cumsum(x, 1)), written as it goes: the scan plan (a warp per
// 32 rows, tiles staged and stored coalesced), in the loop's order.
CULIFT_KERNEL inline void CumSum(const float* x, float* out, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) {
    s += x[i * n + k];
    out[i * n + k] = s;
  }
}
