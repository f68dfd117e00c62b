#include <culift/annotate.hpp>
struct S { int v; };
CULIFT_KERNEL int f(int a) {
  S s = a;  // corpus-error
  return 0;
}
