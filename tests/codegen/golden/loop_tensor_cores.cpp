// Contractions that opted into tensor cores: the tiled contraction's tiles with the loop as mma
// instructions on operands rounded to tf32 (and to bf16 with B transposed, the sum starting from
// C). The statements before the loop (an early return on the diagonal) run per output.
#include <culift/annotate.hpp>

CULIFT_KERNEL_TENSOR_CORES(tf32)
float GemmTf32(const float* A, const float* B, const float* C, float alpha, int nk, int nj, int i, int j) {
  if (i == j) return C[i * nj + j];
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[k * nj + j];
  return alpha * sum + C[i * nj + j];
}

CULIFT_KERNEL_TENSOR_CORES(bf16)
float GemmBf16(const float* A, const float* B, const float* C, int nk, int nj, int i, int j) {
  float sum = C[i * nj + j];
  for (int k = 0; k < nk; ++k) sum = sum + B[j * nk + k] * A[i * nk + k];
  return sum;
}
