#include <culift/annotate.hpp>
#include <utility>
CULIFT_KERNEL int f(int a) {
  auto [x, y] = std::pair<int, int>(a, a);  // expected-error {{a std::pair is supported only as the result of std::minmax}}
  return x + y;
}
