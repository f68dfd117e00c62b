#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int* p, int i) {
  delete p;  // expected-error {{delete is not supported: there is no dynamic allocation on the device}}
  return i;
}
