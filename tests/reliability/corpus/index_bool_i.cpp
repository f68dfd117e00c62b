#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, bool i) { return x[i]; }  // expected-error {{index parameter 'i' of 'f' must be an integer passed by value, not 'bool'}}
