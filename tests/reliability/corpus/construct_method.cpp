#include <culift/annotate.hpp>
struct S {
  CULIFT_KERNEL int f(int a) { return a; }  // corpus-error
};
