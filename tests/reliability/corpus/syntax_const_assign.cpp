#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i) {
  x[i] = 1.0f;  // expected-error {{read-only variable is not assignable}}
  return x[i];
}
