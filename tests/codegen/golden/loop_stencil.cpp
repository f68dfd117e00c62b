// Stencils: reads at the output's index plus constant offsets, each thread walking consecutive
// outputs along the first axis. 2-D: a border that returns the input and a window loop; 3-D:
// heat-3d's interior test and its border copy (2.5-D blocking, a slab of planes per block).
#include <culift/annotate.hpp>

CULIFT_KERNEL float Jacobi(const float* A, int n, int i, int j) {
  if (i == 0 || i == n - 1 || j == 0 || j == n - 1) return A[i * n + j];
  return 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + 1 + j] + A[(1 + i) * n + j] + A[(i - 1) * n + j]);
}

CULIFT_KERNEL void Box(const float* x, float* y, int n, int m, int i, int j) {
  if (i >= 1 && i < n - 1 && j >= 1 && j < m - 1) {
    float s = 0.0f;
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj) s += x[(i + di) * m + j + dj];
    y[i * m + j] = s / 9.0f;
  }
}

CULIFT_KERNEL void Heat(const double* A, double* B, int n, int i, int j, int k) {
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1) {
    B[(i * n + j) * n + k] = 0.125 * (A[((i + 1) * n + j) * n + k] - 2.0 * A[(i * n + j) * n + k] +
                                      A[((i - 1) * n + j) * n + k]) +
                             0.125 * (A[(i * n + j + 1) * n + k] - 2.0 * A[(i * n + j) * n + k] +
                                      A[(i * n + j - 1) * n + k]) +
                             0.125 * (A[(i * n + j) * n + k + 1] - 2.0 * A[(i * n + j) * n + k] +
                                      A[(i * n + j) * n + k - 1]) +
                             A[(i * n + j) * n + k];
  } else {
    B[(i * n + j) * n + k] = A[(i * n + j) * n + k];
  }
}
