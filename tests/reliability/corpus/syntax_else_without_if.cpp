#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  else return a;  // corpus-error
  return 0;
}
