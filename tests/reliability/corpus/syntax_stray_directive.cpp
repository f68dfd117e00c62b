#include <culift/annotate.hpp>
#bogus_directive  // corpus-error
CULIFT_KERNEL int f(int a) { return a; }
