#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  try { return a; } catch (...) { return 0; }  // corpus-error
}
