// f(i, j) == f(j, i) bit for bit (the operands of * exchanged): a symmetric tiled contraction,
// computing the tiles on and below the diagonal and storing each result twice.
#include <culift/annotate.hpp>

CULIFT_KERNEL float Gram(const float* x, int cols, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < cols; ++k) acc += x[i * cols + k] * x[j * cols + k];
  return acc;
}
