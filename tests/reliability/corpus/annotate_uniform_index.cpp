#include <culift/annotate.hpp>
CULIFT_UNIFORM(i) float f(const float* x, int i) { return x[i]; }  // expected-error {{index parameter 'i' of 'f' cannot be uniform}}
