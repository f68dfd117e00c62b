#include <culift/annotate.hpp>
CULIFT_KERNEL int f(const void* p, int i) { return i; }  // expected-error {{parameter 'p' points to unsupported type 'const void'}}
