#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
again:
  if (a > 0) { --a; goto again; }  // corpus-error
  return a;
}
