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

// The same cell with its contraction on tensor cores (opt-in: operands rounded to tf32, fp32 sums;
// not exact, docs/numerical-contract.md#tensor-cores). Native code computes it as written.
CULIFT_KERNEL_TENSOR_CORES(tf32)
inline float GemmCellTf32(const float* A, const float* B, const float* C, float alpha, float beta, int nk, int nj,
                          int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[k * nj + j];
  return alpha * sum + beta * C[i * nj + j];
}

// C = A B, one cell, as a matrix multiply is written: A is ni x nk, B is nk x nj, row-major.
CULIFT_KERNEL inline float MatMulCell(const float* A, const float* B, int nk, int nj, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[k * nj + j];
  return sum;
}

// C = A Bᵀ, one cell: A is ni x nk, B is nj x nk, row-major.
CULIFT_KERNEL inline float MatMulBtCell(const float* A, const float* B, int nk, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[j * nk + k];
  return sum;
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

// PolyBench's syr2k, one cell of the lower triangle (the upper keeps C): C = alpha (A B^T + B A^T)
// + beta C, A and B n x nk row-major. Four staged arrays: A and B by row i and by row j.
CULIFT_KERNEL inline float Syr2kCell(const float* A, const float* B, const float* C, float alpha, float beta, int nk,
                                     int n, int i, int j) {
  if (j > i) return C[i * n + j];
  float s = 0.0f;
  for (int k = 0; k < nk; ++k) s += A[j * nk + k] * alpha * B[i * nk + k] + B[j * nk + k] * alpha * A[i * nk + k];
  return beta * C[i * n + j] + s;
}

// PolyBench's gesummv, one row: y = alpha A x + beta B x, in double (A and B rows x n, row-major).
CULIFT_KERNEL inline double GesummvRow(const double* A, const double* B, const double* x, double alpha, double beta,
                                       int n, int i) {
  double tmp = 0.0, y = 0.0;
  for (int k = 0; k < n; ++k) {
    tmp += A[i * n + k] * x[k];
    y += B[i * n + k] * x[k];
  }
  return alpha * tmp + beta * y;
}

// C[b] = A[b] B[b], one cell of batch b: A is batches x m x nk, B batches x nk x n, row-major
// (torch.bmm).
CULIFT_KERNEL_INDEX(b, i, j)
inline float BatchedGemmCell(const float* A, const float* B, int m, int nk, int n, int b, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[(b * m + i) * nk + k] * B[(b * nk + k) * n + j];
  return sum;
}

// The same cell with its contraction on tensor cores (opt-in: tf32 operands, fp32 sums; not exact).
CULIFT_KERNEL_INDEX(b, i, j)
CULIFT_KERNEL_TENSOR_CORES(tf32)
inline float BatchedGemmCellTf32(const float* A, const float* B, int m, int nk, int n, int b, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[(b * m + i) * nk + k] * B[(b * nk + k) * n + j];
  return sum;
}

// PolyBench doitgen, one cell: sum over s of A[r][q][s] * C4[s][p], C4 the same for every r.
CULIFT_KERNEL_INDEX(r, q, p)
inline float DoitgenCell(const float* A, const float* C4, int nq, int np, int ns, int r, int q, int p) {
  float sum = 0.0f;
  for (int s = 0; s < ns; ++s) sum += A[(r * nq + q) * ns + s] * C4[s * np + p];
  return sum;
}
