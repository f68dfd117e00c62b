// Kernels of every index convention for the launches split over MPI ranks (mpi_split_tests.sh).
#include <culift/annotate.hpp>

// 1-D, a loop per output.
CULIFT_KERNEL float RowSum(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k];
  return s;
}

// 2-D, symmetric (a Gram matrix).
CULIFT_KERNEL double Gram(const double* a, int d, int i, int j) {
  double s = 0.0;
  for (int k = 0; k < d; ++k) s += a[i * d + k] * a[j * d + k];
  return s;
}

// 3-D, a 7-point stencil whose border returns its own element.
CULIFT_KERNEL float Blur(const float* x, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return x[c];
  return 0.25f * x[c] + 0.125f * (x[c - 1] + x[c + 1] + x[c - nk] + x[c + nk] + x[c - nj * nk] + x[c + nj * nk]);
}

// Element-wise.
CULIFT_KERNEL float Axpy(float x, float y) { return 2.5f * x + y; }

// A void kernel writing its own element.
CULIFT_KERNEL void Scale(const float* x, float* y, float s, int i) { y[i] = s * x[i] + 1.0f; }

// A struct result.
struct MinMax {
  float lo;
  float hi;
};
CULIFT_KERNEL MinMax RowRange(const float* x, int cols, int i) {
  MinMax r{x[i * cols], x[i * cols]};
  for (int k = 1; k < cols; ++k) {
    r.lo = x[i * cols + k] < r.lo ? x[i * cols + k] : r.lo;
    r.hi = x[i * cols + k] > r.hi ? x[i * cols + k] : r.hi;
  }
  return r;
}

// Writes elements that other outputs write too: cannot be split by outputs.
CULIFT_KERNEL void Histogram(const int* bin, int* counts, int i) { counts[bin[i]] += 1; }

// Reads past the end of x for the second half of its outputs: only the last rank's part fails.
CULIFT_KERNEL float Stride2(const float* x, int i) { return x[2 * i]; }

// Runs x[i] steps per output: with a huge x in the last rank's part, that rank does not come back
// for a long time, and the others' watchdog ($CULIFT_MPI_TIMEOUT) ends the job.
CULIFT_KERNEL float Spin(const float* x, int i) {
  float s = 0.0f;
  for (long long k = 0; k < (long long)x[i]; ++k) s = s * 0.5f + 1.0f;
  return s;
}
