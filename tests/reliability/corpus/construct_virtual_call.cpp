#include <culift/annotate.hpp>
struct B { virtual int g(int a) const { return a; } };
CULIFT_KERNEL int f(int a) {
  B b;  // expected-error {{local variable 'b' has class type 'B': structs, classes, unions and library types are not supported}}
  return b.g(a);
}
