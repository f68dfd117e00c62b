#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int v[2] = {a, a};
  auto [x, y] = v;  // expected-error {{array '' must be initialized with a brace list: = {...}}}
  return x + y;
}
