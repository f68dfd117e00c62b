#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(r, r) float f(const float* x, int r) { return x[r]; }  // expected-error {{CULIFT_KERNEL_INDEX on 'f' names 'r' twice}}
