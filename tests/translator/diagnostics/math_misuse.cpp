// Math functions with an initializer list or an extra comparator.
#include <culift/annotate.hpp>
#include <algorithm>
#include <cmath>

CULIFT_KERNEL float smallest(float a, float b, float c) {
  return std::min({a, b, c});  // expected-error {{with an initializer list is not supported}}
}

CULIFT_KERNEL float custom(float a, float b) {
  return std::max(a, b, [](float x, float y) { return x < y; });  // expected-error {{with 3 argument(s) is not supported}}
}
