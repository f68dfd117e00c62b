#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float& x) { return x; }  // corpus-error
