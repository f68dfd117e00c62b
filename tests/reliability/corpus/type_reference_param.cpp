#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float& x) { return x; }  // expected-error {{reference parameter 'x' of type 'float &' is not supported}}
