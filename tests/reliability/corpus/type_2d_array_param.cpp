#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float x[4][4], int i) { return x[i][0]; }  // expected-error {{pointer-to-pointer parameter 'x' of type 'const float (*)[4]' is not supported}}
