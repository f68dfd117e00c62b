#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float* x, int j) { return x[j]; }  // expected-error {{index parameter 'j' of 'f' needs 'i' too}}
