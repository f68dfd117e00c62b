#include <culift/annotate.hpp>
CULIFT_KERNEL double f(long double x) { return (double)x; }  // expected-error {{parameter 'x' has unsupported type 'long double'}}
