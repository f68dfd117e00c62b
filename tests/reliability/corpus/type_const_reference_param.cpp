#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float& x) { return x; }  // corpus-error
