// Parameters i and j: a 2-D kernel, rows on y and columns on x, out[i * cols + j].
#include <culift/annotate.hpp>

CULIFT_KERNEL float Grid2D(const float* a, const float* b, int n, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += a[i * n + k] * b[k * n + j];
  return acc;
}
