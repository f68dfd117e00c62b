#include <culift/annotate.hpp>
struct P { float x, y; };
CULIFT_KERNEL float f(float a, int k) {
  P ps[2] = {{a, a}, {a, a}};
  return ps[k++ % 2].x;  // expected-error {{the index of an element of an array of structs must have no side effects}}
}
