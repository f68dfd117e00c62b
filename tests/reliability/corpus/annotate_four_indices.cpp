#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(a, b, c, d) float f(const float* x, int a, int b, int c, int d) { return x[a + b + c + d]; }  // corpus-error
