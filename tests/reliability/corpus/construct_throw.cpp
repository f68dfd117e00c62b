#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  if (a < 0) throw a;  // expected-error {{throw is not supported: exceptions are not available on the device}}
  return a;
}
