#include <culift/annotate.hpp>
#include <array>
CULIFT_KERNEL int f(int a) {
  std::array<int, 3> v{};  // corpus-error
  return a + v[0];
}
