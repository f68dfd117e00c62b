#include <culift/annotate.hpp>
CULIFT_KERNEL_INDEX(row) float f(const float* x, float row) { return x[0] + row; }  // expected-error {{index parameter 'row' of 'f' must be an integer passed by value, not 'float'}}
