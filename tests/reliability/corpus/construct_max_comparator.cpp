#include <culift/annotate.hpp>
#include <algorithm>
CULIFT_KERNEL float f(float a, float b) {
  return std::max(a, b, [](float x, float y) { return x < y; });  // expected-error {{'std::max' with a comparator is not supported}}
}
