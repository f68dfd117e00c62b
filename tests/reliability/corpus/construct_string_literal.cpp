#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  (void)"text";  // corpus-error
  return a;
}
