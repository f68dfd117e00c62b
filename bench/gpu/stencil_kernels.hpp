// PolyBench's stencils as a user lifts them: one output per call, the border as the benchmark
// leaves it (copied from the input), row-major C arrays (heat-3d and the 3-D convolution
// A[(i * nj + j) * nk + k]). A time step of heat-3d and jacobi-2d is two launches, B from A, then
// A from B, as PolyBench's two statements per step.
#pragma once

#include <culift/annotate.hpp>

// jacobi-2d: B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][1+j] + A[1+i][j] + A[i-1][j]).
CULIFT_KERNEL float Jacobi2D(const float* A, int n, int i, int j) {
  if (i == 0 || i == n - 1 || j == 0 || j == n - 1) return A[i * n + j];
  return 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + 1 + j] + A[(1 + i) * n + j] + A[(i - 1) * n + j]);
}

// heat-3d: B = 0.125 * (second differences along i, j, k) + A, interior points only.
CULIFT_KERNEL void Heat3D(const double* A, double* B, int n, int i, int j, int k) {
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1) {
    B[(i * n + j) * n + k] =
        0.125 * (A[((i + 1) * n + j) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[((i - 1) * n + j) * n + k]) +
        0.125 * (A[(i * n + j + 1) * n + k] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + j - 1) * n + k]) +
        0.125 * (A[(i * n + j) * n + k + 1] - 2.0 * A[(i * n + j) * n + k] + A[(i * n + j) * n + k - 1]) +
        A[(i * n + j) * n + k];
  } else {
    B[(i * n + j) * n + k] = A[(i * n + j) * n + k];
  }
}

// The 27-point 3-D convolution: weights w[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)] over the window
// around (i, j, k); the border keeps the input.
CULIFT_KERNEL float Conv3D(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];
  float s = 0.0f;
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj)
      for (int dk = -1; dk <= 1; ++dk) s += w[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)] * A[c + (di * nj + dj) * nk + dk];
  return s;
}
