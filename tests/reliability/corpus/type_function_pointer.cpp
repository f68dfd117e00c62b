#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float (*g)(float), float x) { return g(x); }  // expected-error {{parameter 'g' points to unsupported type 'float (float)'}}
