#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float** x, int i) { return x[i][0]; }  // corpus-error
