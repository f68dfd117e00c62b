// Parameters i, j and k: a 3-D kernel in C order, k on x, out[(i * cols + j) * depth + k].
#include <culift/annotate.hpp>

CULIFT_KERNEL double Grid3D(const double* v, int nj, int nk, int i, int j, int k) {
  return v[(i * nj + j) * nk + k] * 0.5;
}
