#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const int* i) { return (float)i[0]; }  // corpus-error
