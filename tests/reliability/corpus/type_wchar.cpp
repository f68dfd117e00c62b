#include <culift/annotate.hpp>
CULIFT_KERNEL int f(wchar_t c) { return (int)c; }  // corpus-error
