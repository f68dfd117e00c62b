#include <culift/annotate.hpp>
CULIFT_KERNEL float f(const float& x) { return x; }  // expected-error {{reference parameter 'x' of type 'const float &' is not supported}}
