// Scalars only: an element-wise kernel, every parameter read from its own array.
#include <culift/annotate.hpp>

CULIFT_KERNEL float ElementWise(float a, float b, int n) { return a * b + (float)n; }
