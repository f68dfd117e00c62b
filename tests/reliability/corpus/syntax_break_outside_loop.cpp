#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  break;  // corpus-error
  return a;
}
