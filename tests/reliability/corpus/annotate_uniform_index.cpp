#include <culift/annotate.hpp>
CULIFT_UNIFORM(i) float f(const float* x, int i) { return x[i]; }  // corpus-error
