#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i) {
  float local[4] = {};
  float* p = local;  // expected-error {{local pointer variable 'p' is not supported}}
  return p[0] + x[i];
}
