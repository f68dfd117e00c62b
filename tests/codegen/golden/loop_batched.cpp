// 3-D kernels whose loop contracts two operands per batch b: a batched matrix product (both
// operands indexed by the batch) and doitgen (C4 shared by every batch): batched tiled contractions.
#include <culift/annotate.hpp>

CULIFT_KERNEL_INDEX(b, i, j)
float BatchedGemm(const float* A, const float* B, int m, int nk, int n, int b, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[(b * m + i) * nk + k] * B[(b * nk + k) * n + j];
  return sum;
}

CULIFT_KERNEL_INDEX(r, q, p)
float Doitgen(const float* A, const float* C4, int nq, int np, int ns, int r, int q, int p) {
  float sum = 0.0f;
  for (int s = 0; s < ns; ++s) sum += A[(r * nq + q) * ns + s] * C4[s * np + p];
  return sum;
}
