#include <culift/annotate.hpp>
struct P { float x, y; };
CULIFT_KERNEL float f(float a) {
  P ps[2] = {{a, a}, {a, a}};  // expected-error {{local array 'ps' has unsupported element type 'P'}}
  return ps[0].x;
}
