#include <culift/annotate.hpp>
struct Guard {
  float v;
  ~Guard() { v = 0.0f; }
};
CULIFT_KERNEL float f(float a) {
  Guard g{a};  // expected-error {{local variable 'g' has type 'Guard': a struct with a user-declared destructor is not supported}}
  return g.v;
}
