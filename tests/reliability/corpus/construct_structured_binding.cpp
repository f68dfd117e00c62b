#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int v[2] = {a, a};
  auto [x, y] = v;  // corpus-error
  return x + y;
}
