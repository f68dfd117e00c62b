#include <culift/annotate.hpp>
CULIFT_KERNEL double f(long double x) { return (double)x; }  // corpus-error
