// Parameters i, j and k: a 3-D kernel, k on z, out[(k * rows + i) * cols + j].
#include <culift/annotate.hpp>

CULIFT_KERNEL double Grid3D(const double* v, int nx, int ny, int i, int j, int k) {
  return v[(k * ny + i) * nx + j] * 0.5;
}
