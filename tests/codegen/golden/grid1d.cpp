// Parameter i: a 1-D kernel, one result per i.
#include <culift/annotate.hpp>

CULIFT_KERNEL float Grid1D(const float* x, float scale, int i) { return x[i] * scale; }
