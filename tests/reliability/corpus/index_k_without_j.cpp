#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int i, int k) { return x[i + k]; }  // expected-error {{index parameter 'k' of 'f' needs 'i' and 'j' too}}
