// Contractions that opted into tensor cores, one per format: not exact, within the bound of
// docs/numerical-contract.md#tensor-cores. The emulated tests (emulated_plan_tests.cpp) and the
// GPU tests (gpu_plan_tests.cpp) check each entry against that bound.
#pragma once

#include <culift/annotate.hpp>

// GEMM with an epilogue that reads C.
CULIFT_KERNEL_TENSOR_CORES(tf32)
inline float GemmTf32(const float* A, const float* B, const float* C, float alpha, float beta, int nk, int nj, int i,
                      int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[k * nj + j];
  return beta * C[i * nj + j] + alpha * sum;
}

// B transposed (column j of the product is row j of B), the sum starting from C.
CULIFT_KERNEL_TENSOR_CORES(bf16)
inline float GemmBf16(const float* A, const float* B, const float* C, int nk, int nj, int i, int j) {
  float sum = C[i * nj + j];
  for (int k = 0; k < nk; ++k) sum += B[j * nk + k] * A[i * nk + k];
  return sum;
}

CULIFT_KERNEL_TENSOR_CORES(fp16)
inline float GemmFp16(const float* A, const float* B, int nk, int nj, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum = sum + A[i * nk + k] * B[k * nj + j];
  return sum;
}

// Batched matrix multiply (torch.bmm), each batch slice's contraction on tensor cores.
CULIFT_KERNEL_INDEX(b, i, j)
CULIFT_KERNEL_TENSOR_CORES(tf32)
inline float BatchedTf32(const float* A, const float* B, int m, int nk, int n, int b, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[(b * m + i) * nk + k] * B[(b * nk + k) * n + j];
  return sum;
}
