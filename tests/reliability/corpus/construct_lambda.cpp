#include <culift/annotate.hpp>
inline auto scaler(float k) { return [k](float x) { return k * x; }; }
CULIFT_KERNEL float f(float a) {
  auto s = scaler(2.0f);  // expected-error {{a lambda cannot leave the function that defines it: 'scaler' returns one}}
  return s(a);
}
