#include <culift/annotate.hpp>
struct B { virtual int g(int a) const { return a; } };
CULIFT_KERNEL int f(int a) {
  B b;  // expected-error {{local variable 'b' has type 'B': a struct with virtual functions is not supported}}
  return b.g(a);
}
