#include <culift/annotate.hpp>
#include <limits>
CULIFT_KERNEL float f(float x) {
  return x + std::numeric_limits<float>::signaling_NaN();  // expected-error {{signaling NaNs are not supported}}
}
