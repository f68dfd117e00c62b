#include <culift/annotate.hpp>
#include <utility>
CULIFT_KERNEL int f(int a) {
  auto [x, y] = std::pair<int, int>(a, a);  // expected-error {{structured bindings of this type are not supported}}
  return x + y;
}
