#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(row) float f(const float* x, int i) { return x[i]; }  // expected-error {{CULIFT_KERNEL_INDEX on 'f' names 'row', which is not a parameter of 'f'}}
