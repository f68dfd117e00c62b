#include <culift/annotate.hpp>
float gTable[3] = {1, 2, 3};
CULIFT_KERNEL float f(int i) { return gTable[i]; }  // expected-error {{non-const global array 'gTable' cannot be used in a culift kernel}}
