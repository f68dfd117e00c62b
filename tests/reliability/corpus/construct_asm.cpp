#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  asm("nop");  // expected-error {{inline assembly is not supported}}
  return a;
}
