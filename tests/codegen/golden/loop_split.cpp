// 1-D kernels allowed to reassociate their sums, for launches of few long rows: the blocks of a
// row share its 256 slots (chunks of 4096 iterations, each a warp sum), write them to the
// runtime's scratch, and the row's last block adds them. The warp-per-row entry follows, in the
// same order. A return before the loop ends the row for every block.
#include <culift/annotate.hpp>

CULIFT_KERNEL_REASSOCIATE float RowTotal(const float* x, long long cols, int i) {
  float sum = 0.0f;
  for (long long k = 0; k < cols; ++k) sum += x[i * cols + k];
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

// A loop of at most one chunk: the warp per row alone.
CULIFT_KERNEL_REASSOCIATE float Short(const float* x, int i) {
  float s = 0.0f;
  for (int k = 0; k < 64; ++k) s += x[i * 64 + k];
  return s;
}
