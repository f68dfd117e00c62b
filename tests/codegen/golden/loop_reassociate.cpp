// 1-D kernels allowed to reassociate their sums: a warp per output, lane l adding the terms of
// iterations l, l + 32, ... in order, then a fixed tree of shuffles. The statements before the
// loop run on every lane, those after it on the first.
#include <culift/annotate.hpp>

CULIFT_KERNEL_REASSOCIATE float RowTotal(const float* x, int cols, int i) {
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) sum += x[i * cols + k];
  return sum;
}

CULIFT_KERNEL_REASSOCIATE CULIFT_KERNEL_INDEX(r) double Moments(const double* A, const double* v, int n, int r) {
  if (r == 0) return 0.0;
  double s = 0.0, sq = 0.0;
  for (int k = 0; k < n; ++k) {
    const double t = A[r * n + k] * v[k];
    s = s + t;
    if (t < 0.0) sq -= t * t;
  }
  return s / (1.0 - sq);
}
