#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float (*g)(float), float x) { return g(x); }  // corpus-error
