#include <culift/annotate.hpp>
struct Counted {
  float v;
  Counted(float x) : v(x) {}
  Counted(const Counted& o) : v(o.v + 1.0f) {}
};
inline float twice(Counted c) { return 2.0f * c.v; }  // expected-error {{parameter 'c' has type 'Counted': a struct with user-defined copy or move operations is not supported}}
CULIFT_KERNEL float f(float a) { return twice(Counted(a)); }
