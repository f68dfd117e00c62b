#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  auto sq = [](int x) { return x * x; };  // corpus-error
  return sq(a);
}
