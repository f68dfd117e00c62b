#include <culift/annotate.hpp>
CULIFT_KERNEL float f(int n, const float x[][n], int i) { return x[i][0]; }  // expected-error {{the inner extents of the multi-dimensional array parameter 'x' of type 'const float (*)[n]' must be constants}}
