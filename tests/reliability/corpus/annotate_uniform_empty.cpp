#include <culift/annotate.hpp>
CULIFT_UNIFORM() float f(float x, float a) { return x * a; }  // corpus-error
