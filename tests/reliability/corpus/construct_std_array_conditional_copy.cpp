#include <culift/annotate.hpp>
#include <array>
CULIFT_KERNEL float f(float a, bool first) {
  std::array<float, 2> x = {a, a}, y = {-a, a};
  std::array<float, 2> z = first ? x : y;  // expected-error {{only a std::array variable or parameter can be copied here}}
  return z[0];
}
