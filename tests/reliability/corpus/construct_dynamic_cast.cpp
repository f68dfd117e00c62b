#include <culift/annotate.hpp>
struct B { virtual ~B() {} };
struct D : B {};
CULIFT_KERNEL int f(int a) {
  B* b = nullptr;  // expected-error {{local pointer variable 'b' is not supported}}
  return dynamic_cast<D*>(b) ? a : 0;
}
