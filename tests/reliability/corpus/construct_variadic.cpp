#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int n, ...) { return n; }  // corpus-error
