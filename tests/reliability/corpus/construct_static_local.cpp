#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  static int count = 0;  // corpus-error
  return a + count;
}
