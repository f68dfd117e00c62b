#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i) {
  return *(x + i);  // expected-error {{pointer dereference is not supported}}
}
