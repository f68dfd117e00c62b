#include <culift/annotate.hpp>
#include <cassert>
CULIFT_KERNEL int f(int n) {
  assert(++n > 0);  // corpus-error
  return n;
}
