#include <culift/annotate.hpp>
CULIFT_KERNEL int f(char16_t c) { return (int)c; }  // corpus-error
