#include <culift/annotate.hpp>
#include <array>
CULIFT_KERNEL int f(int a) {
  std::array<int, 3> v{};  // expected-error {{local variable 'v' has class type 'std::array<int, 3>': library types are not supported}}
  return a + v[0];
}
