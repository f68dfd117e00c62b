#include <culift/annotate.hpp>
#include "missing_local_header.hpp"  // corpus-error
CULIFT_KERNEL int f(int a) { return a; }
