#include <algorithm>
#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float a, float b) {
  const float& r = std::max(a, b + 1.0f);  // expected-error {{reference 'r' is bound to the reference 'std::max' returns, which may refer to a temporary that dies at the end of the statement}}
  return r;
}
