#include <culift/annotate.hpp>
struct Scaler {
  float k;
  auto get() const {
    return [k = k](float x) { return k * x; };
  }
};
CULIFT_KERNEL float f(float a) {
  Scaler s{a};
  auto g = s.get();  // expected-error {{a lambda cannot leave the function that defines it: 'Scaler::get' returns one}}
  return g(2.0f);
}
