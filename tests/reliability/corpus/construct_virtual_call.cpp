#include <culift/annotate.hpp>
struct B { virtual int g(int a) const { return a; } };
CULIFT_KERNEL int f(int a) {
  B b;  // corpus-error
  return b.g(a);
}
