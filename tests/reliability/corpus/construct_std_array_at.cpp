#include <culift/annotate.hpp>
#include <array>
CULIFT_KERNEL float f(float a, int i) {
  std::array<float, 2> v = {a, a};
  return v.at(i);  // expected-error {{std::array::at is not supported: it throws, and exceptions are not available on the device}}
}
