#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  struct L { int v; } l{a};  // corpus-error
  return l.v;
}
