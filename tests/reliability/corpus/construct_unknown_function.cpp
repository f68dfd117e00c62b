#include <culift/annotate.hpp>
int external(int);
CULIFT_KERNEL int f(int a) {
  return external(a);  // corpus-error
}
