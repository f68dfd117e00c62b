#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, bool i) { return x[i]; }  // corpus-error
