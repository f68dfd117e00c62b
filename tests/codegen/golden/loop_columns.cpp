// Kernels whose loop runs over a middle axis while their outputs lie side by side in the last:
// column reductions, one output per thread in the order written, the loads of several iterations
// issued ahead of the statements that use them. A 2-D column sum, a 1-D one over i = b * S + s
// (RMS norm's sum of squares over f, then a division and a square root after the loop), and an
// integer max over a column with an early return.
#include <culift/annotate.hpp>

#include <algorithm>
#include <cmath>

CULIFT_KERNEL float ColumnSum(const float* x, int d1, int d2, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < d1; ++k) s += x[(i * d1 + k) * d2 + j];
  return s;
}

CULIFT_KERNEL float RmsOf(const float* x, int F, int S, float eps, int i) {
  const int b = i / S;
  const int s = i % S;
  float sum = 0.0f;
  for (int f = 0; f < F; ++f) {
    const float v = x[(b * F + f) * S + s];
    sum += v * v;
  }
  return std::sqrt(sum / (float)F + eps);
}

CULIFT_KERNEL int ColumnMax(const int* x, int rows, int n, int i) {
  if (n <= 0) return -1;
  int m = x[i];
  for (int k = 1; k < n; ++k) m = std::max(m, x[k * rows + i]);
  return m;
}
