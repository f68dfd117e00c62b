#include <culift/annotate.hpp>
#bogus_directive  // expected-error {{invalid preprocessing directive}}
CULIFT_KERNEL int f(int a) { return a; }
