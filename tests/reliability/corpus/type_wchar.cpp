#include <culift/annotate.hpp>
CULIFT_KERNEL int f(wchar_t c) { return (int)c; }  // expected-error {{parameter 'c' has unsupported type 'wchar_t'}}
