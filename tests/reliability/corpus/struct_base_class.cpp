#include <culift/annotate.hpp>
struct Base { float x; };
struct Derived : Base { float y; };
CULIFT_KERNEL float f(float a) {
  Derived d{};  // expected-error {{local variable 'd' has type 'Derived': a struct with a base class is not supported}}
  d.y = a;
  return d.y;
}
