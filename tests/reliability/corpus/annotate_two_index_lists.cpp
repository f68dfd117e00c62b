#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(r) CULIFT_KERNEL_INDEX(c) float f(const float* x, int r, int c) { return x[r + c]; }  // expected-error {{'f' has two different CULIFT_KERNEL_INDEX annotations}}
