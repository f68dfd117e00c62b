#include <culift/annotate.hpp>
struct Scale {
  float k;
  float apply(float x) const { return k * x; }
};
static const Scale kHalf{0.5f};
CULIFT_KERNEL float f(float a) {
  return kHalf.apply(a);  // expected-error {{global struct 'kHalf' is not supported}}
}
