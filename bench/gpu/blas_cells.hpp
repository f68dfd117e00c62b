// Dense linear algebra written the natural way, one output per call: the benchmark's GEMM, SYRK
// and matrix-vector rows. Lifted by culift (the loop planner tiles or stages the loop) and
// compiled natively as the reference.
#pragma once

#include <culift/annotate.hpp>

// C = alpha * A B + beta * C, one cell: A is ni x nk, B is nk x nj, all row-major.
CULIFT_KERNEL inline float GemmCell(const float* A, const float* B, const float* C, float alpha, float beta, int nk,
                                    int nj, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[k * nj + j];
  return alpha * sum + beta * C[i * nj + j];
}

// C = alpha * A Aᵀ + beta * C, one cell: A is n x nk row-major.
CULIFT_KERNEL inline float SyrkCell(const float* A, const float* C, float alpha, float beta, int nk, int n, int i,
                                    int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * A[j * nk + k];
  return alpha * sum + beta * C[i * n + j];
}

// y = A x, one row: A is rows x n row-major.
CULIFT_KERNEL inline float MatVecRow(const float* A, const float* x, int n, int i) {
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += A[i * n + k] * x[k];
  return sum;
}
