#include <culift/annotate.hpp>
CULIFT_UNIFORM(x) float f(const float* x, int i) { return x[i]; }  // expected-error {{CULIFT_UNIFORM on 'f' names 'x', an array: only scalar parameters can be uniform}}
