#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i, double j) { return x[i] + (float)j; }  // corpus-error
