#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(r, r) float f(const float* x, int r) { return x[r]; }  // corpus-error
