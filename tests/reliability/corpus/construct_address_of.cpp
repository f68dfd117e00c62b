#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int* p = &a;  // corpus-error
  return *p;
}
