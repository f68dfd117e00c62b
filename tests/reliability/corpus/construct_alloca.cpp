#include <culift/annotate.hpp>
#include <alloca.h>
CULIFT_KERNEL int f(int a) {
  int* p = (int*)alloca(16);  // expected-error {{local pointer variable 'p' is not supported}}
  return a;
}
