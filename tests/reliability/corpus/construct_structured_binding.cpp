#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int m[2][2] = {{a, a}, {a, a}};
  auto [r0, r1] = m;  // expected-error {{structured bindings of a multi-dimensional array are not supported}}
  return r0[0] + r1[1];
}
