#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int* p, int i) {
  delete p;  // corpus-error
  return i;
}
