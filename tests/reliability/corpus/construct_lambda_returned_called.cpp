#include <culift/annotate.hpp>
inline auto adder(float k) {
  return [k](float x) { return k + x; };
}
CULIFT_KERNEL float f(float a) {
  return adder(a)(1.0f);  // expected-error {{only a lambda named in this function can be called}}
}
