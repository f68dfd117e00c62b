#include <culift/annotate.hpp>
inline auto maker(float k) {
  auto scale = [k](float x) { return k * x; };
  return scale;
}
CULIFT_KERNEL float f(float a) {
  auto s = maker(2.0f);  // expected-error {{a lambda cannot leave the function that defines it: 'maker' returns one}}
  return s(a);
}
