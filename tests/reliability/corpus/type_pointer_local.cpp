#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i) {
  const float* p = x;  // expected-error {{local pointer variable 'p' is not supported}}
  return p[i];
}
