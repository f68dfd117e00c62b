// An index parameter cannot be uniform (a classification error: reported once lifting succeeds).
#include <culift/annotate.hpp>

CULIFT_UNIFORM(i) float uniformIndex(const float* x, int i) { return x[i]; }  // expected-error {{index parameter 'i' of 'uniformIndex' cannot be uniform}}
