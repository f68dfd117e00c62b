#include <culift/annotate.hpp>
#include <alloca.h>
CULIFT_KERNEL int f(int a) {
  int* p = (int*)alloca(16);  // corpus-error
  return a;
}
