#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(a, b, c, d) float f(const float* x, int a, int b, int c, int d) { return x[a + b + c + d]; }  // expected-error {{CULIFT_KERNEL_INDEX on 'f' names 4 index parameters; at most 3 (i, j, k) are supported}}
