#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int* p = &a;  // expected-error {{local pointer variable 'p' is not supported}}
  return *p;
}
