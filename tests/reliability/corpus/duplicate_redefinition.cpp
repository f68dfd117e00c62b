#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) { return a; }
CULIFT_KERNEL int f(int a) { return a + 1; }  // expected-error {{redefinition of 'f'}}
