#include <culift/annotate.hpp>
CULIFT_KERNEL f(int a) { return a; }  // corpus-error
