// Inline assembly.
#include <culift/annotate.hpp>

CULIFT_KERNEL int withAsm(int x) {
  asm("nop");  // expected-error {{inline assembly is not supported}}
  return x;
}
