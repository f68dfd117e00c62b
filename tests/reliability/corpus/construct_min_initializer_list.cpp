#include <culift/annotate.hpp>
#include <algorithm>
CULIFT_KERNEL float f(float a, float b, float c) {
  return std::min({a, b, c}, [](float x, float y) { return y < x; });  // expected-error {{'std::min' with a comparator is not supported}}
}
