#include <culift/annotate.hpp>
struct Guard {
  float v;
  ~Guard() {}
};
struct Holder {
  Guard g;
  float x;
};
CULIFT_KERNEL float f(float a) {
  Holder h{};  // expected-error {{local variable 'h' has type 'Holder': its field 'Holder::g' of type 'Guard': a struct with a user-declared destructor is not supported: only trivially copyable structs are}}
  h.x = a;
  return h.x;
}
