#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float** x, int i) { return x[i][0]; }  // expected-error {{pointer-to-pointer parameter 'x' of type 'const float **' is not supported}}
