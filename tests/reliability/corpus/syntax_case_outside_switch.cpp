#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  case 1: return a;  // corpus-error
  return 0;
}
