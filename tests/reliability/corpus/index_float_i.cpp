#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, float i) { return x[0] + i; }  // corpus-error
