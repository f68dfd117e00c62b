#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int int b = a;  // corpus-error
  return b;
}
