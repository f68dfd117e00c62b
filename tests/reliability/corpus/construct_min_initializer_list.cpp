#include <culift/annotate.hpp>
#include <algorithm>
CULIFT_KERNEL float f(float a, float b, float c) {
  return std::min({a, b, c});  // corpus-error
}
