#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) { return a; }
CULIFT_KERNEL float f(float a) { return a; }  // expected-error {{two lifted functions are named 'f'}}
