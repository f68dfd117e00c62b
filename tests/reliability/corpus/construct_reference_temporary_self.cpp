#include <culift/annotate.hpp>
struct P {
  float x, y;
  const P& self() const { return *this; }
};
CULIFT_KERNEL float f(float a) {
  const P& p = P{a, 1.0f}.self();  // expected-error {{'P::self' can only be called on a variable here}}
  return p.x;
}
