#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  auto sq = [](int x) { return x * x; };  // expected-error {{lambdas are not supported}}
  return sq(a);
}
