#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i, double j) { return x[i] + (float)j; }  // expected-error {{index parameter 'j' of 'f' must be an integer passed by value, not 'double'}}
