// A 2-D kernel whose loop reads (i, k) and (k, j): a tiled contraction. The statements before
// the loop (an early return on the diagonal) and after it (the epilogue reading C) run per output.
#include <culift/annotate.hpp>

CULIFT_KERNEL float GemmDiag(const float* A, const float* B, const float* C, float alpha, int nk, int nj, int i, int j) {
  if (i == j) return C[i * nj + j];
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[k * nj + j];
  return alpha * sum + C[i * nj + j];
}
