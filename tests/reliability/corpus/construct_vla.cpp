#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int n) {
  int v[n];  // corpus-error
  return n;
}
