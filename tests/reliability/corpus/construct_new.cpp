#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int* p = new int(a);  // corpus-error
  return *p;
}
