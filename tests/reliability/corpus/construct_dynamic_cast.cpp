#include <culift/annotate.hpp>
struct B { virtual ~B() {} };
struct D : B {};
CULIFT_KERNEL int f(int a) {
  B* b = nullptr;  // corpus-error
  return dynamic_cast<D*>(b) ? a : 0;
}
