#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  if (a < 0) throw a;  // corpus-error
  return a;
}
