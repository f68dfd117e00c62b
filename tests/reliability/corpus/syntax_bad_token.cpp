#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return a @ 2;  // corpus-error
}
