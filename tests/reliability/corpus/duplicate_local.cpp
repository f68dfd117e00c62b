#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int b = a;
  int b = 2;  // corpus-error
  return b;
}
