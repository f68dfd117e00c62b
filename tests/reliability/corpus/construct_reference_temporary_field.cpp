#include <culift/annotate.hpp>
struct P {
  float x, y;
};
inline P make(float a) { return P{a, 2.0f * a}; }
CULIFT_KERNEL float f(float a) {
  const float& r = make(a).x;  // expected-error {{reference 'r' must be bound to a variable or an array element}}
  return r;
}
