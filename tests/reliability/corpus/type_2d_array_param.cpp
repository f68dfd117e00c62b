#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float x[4][4], int i) { return x[i][0]; }  // corpus-error
