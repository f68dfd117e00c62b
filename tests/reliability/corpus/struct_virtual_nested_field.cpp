#include <culift/annotate.hpp>
struct Base {
  virtual float scale() const { return 1.0f; }
};
struct Wrapper {
  float x;
  Base b;
};
CULIFT_KERNEL float f(float a) {
  Wrapper w{};  // expected-error {{local variable 'w' has type 'Wrapper': its field 'Wrapper::b' of type 'Base': a struct with virtual functions is not supported}}
  return w.x + a;
}
