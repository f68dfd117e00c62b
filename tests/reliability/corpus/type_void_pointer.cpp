#include <culift/annotate.hpp>
CULIFT_KERNEL int f(const void* p, int i) { return i; }  // corpus-error
