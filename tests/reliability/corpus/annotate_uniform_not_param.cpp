#include <culift/annotate.hpp>
CULIFT_UNIFORM(slope) float f(float x, float a) { return x * a; }  // corpus-error
