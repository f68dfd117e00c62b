#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(row) float f(const float* x, int i) { return x[i]; }  // corpus-error
