#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  try { return a; } catch (...) { return 0; }  // expected-error {{try/catch is not supported: exceptions are not available on the device}}
}
