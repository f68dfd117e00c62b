#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float a) {
  return std::sqrt(a);  // corpus-error
}
