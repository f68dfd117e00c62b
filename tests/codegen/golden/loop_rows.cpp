// 1-D kernels whose loop reads a row (i, k): staged row reductions, one output per thread in the
// order written. The vector x[k], the same for every row, is staged once per slice.
#include <culift/annotate.hpp>

CULIFT_KERNEL float RowSum(const float* x, int cols, int i) {
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) sum += x[i * cols + k];
  return sum;
}

CULIFT_KERNEL double MatVec(const double* A, const double* x, int n, int i) {
  double s = 0.0;
  for (int k = 0; k < n; ++k) s += A[i * n + k] * x[k];
  return s;
}
