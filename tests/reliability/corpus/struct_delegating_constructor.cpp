#include <culift/annotate.hpp>
struct P {
  float x, y;
  P(float a, float b) : x(a), y(b) {}
  P(float a) : P(a, a) {}  // expected-error {{delegating constructors are not supported}}
};
CULIFT_KERNEL float f(float a) {
  P p(a);
  return p.x + p.y;
}
