#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i) {
  float local[4] = {};
  float* p = local;  // corpus-error
  return p[0] + x[i];
}
