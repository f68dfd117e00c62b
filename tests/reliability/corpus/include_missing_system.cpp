#include <culift/annotate.hpp>
#include <no_such_header_culift.h>  // corpus-error
CULIFT_KERNEL int f(int a) { return a; }
