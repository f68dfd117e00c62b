#include <culift/annotate.hpp>
struct Counted {
  float v;
  Counted() = default;
  Counted(const Counted& o) : v(o.v + 1.0f) {}
};
struct Holder {
  Counted c;
  float x;
};
inline float twice(Holder k) { return 2.0f * k.x; }  // expected-error {{parameter 'k' has type 'Holder': its field 'Holder::c' of type 'Counted': a struct with user-defined copy or move operations is not supported}}
CULIFT_KERNEL float f(float a) { return twice(Holder{{}, a}); }
