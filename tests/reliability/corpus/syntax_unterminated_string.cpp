#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  const char* s = "abc;  // corpus-error
  return a;
}
