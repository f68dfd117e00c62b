#include <culift/annotate.hpp>
#include <algorithm>
CULIFT_KERNEL float f(float a, float b, float c) {
  return std::min({a, b, c});  // expected-error {{'std::min' with an initializer list is not supported}}
}
