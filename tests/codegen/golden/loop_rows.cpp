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

// Staged arrays of one width and different types (short and unsigned short rows, an unsigned
// short vector): each is staged in its own type (found by the differential tester's NVRTC leg:
// the slices were all declared in the first array's type).
CULIFT_KERNEL int MixedRows(const short* a, const unsigned short* b, const unsigned short* x, int n, int i) {
  int s = 0;
  for (int k = 0; k < n; ++k) s += (a[i * n + k] + b[i * n + k]) * x[k];
  return s;
}
