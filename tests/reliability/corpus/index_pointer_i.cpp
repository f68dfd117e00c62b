#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const int* i) { return (float)i[0]; }  // expected-error {{index parameter 'i' of 'f' must be an integer passed by value, not 'const int*'}}
