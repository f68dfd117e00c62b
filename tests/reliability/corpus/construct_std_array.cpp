#include <culift/annotate.hpp>
#include <array>
CULIFT_KERNEL int f(int a) {
  std::array<long double, 3> v{};  // expected-error {{std::array 'v' has unsupported element type 'long double'}}
  return a + static_cast<int>(v[0]);
}
