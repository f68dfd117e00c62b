#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int b = a  // corpus-error
  return b;
}
