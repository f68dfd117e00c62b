#include <culift/annotate.hpp>
struct P { float x, y; };
CULIFT_KERNEL float f(float a, float b) {
  const P lo{a, b}, hi{b, a};
  P pick = a < b ? lo : hi;  // expected-error {{choosing between structs with ?: is not supported}}
  return pick.x;
}
