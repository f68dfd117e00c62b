#include <culift/annotate.hpp>
CULIFT_KERNEL int f(char16_t c) { return (int)c; }  // expected-error {{parameter 'c' has unsupported type 'char16_t'}}
