#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i) {
  const float* p = x;  // corpus-error
  return p[i];
}
