#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a, int a) { return a; }  // expected-error {{redefinition of parameter 'a'}}
