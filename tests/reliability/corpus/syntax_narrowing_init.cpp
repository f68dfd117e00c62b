#include <culift/annotate.hpp>
CULIFT_KERNEL int f(double a) {
  int b{a};  // corpus-error
  return b;
}
