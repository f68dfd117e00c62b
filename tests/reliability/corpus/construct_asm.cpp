#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  asm("nop");  // corpus-error
  return a;
}
