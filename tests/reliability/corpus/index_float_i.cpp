#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, float i) { return x[0] + i; }  // expected-error {{index parameter 'i' of 'f' must be an integer passed by value, not 'float'}}
