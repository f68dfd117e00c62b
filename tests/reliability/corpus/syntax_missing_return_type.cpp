#include <culift/annotate.hpp>
CULIFT_KERNEL f(int a) { return a; }  // expected-error {{a type specifier is required for all declarations}}
