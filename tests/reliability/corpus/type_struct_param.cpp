#include <culift/annotate.hpp>
struct P { float x, y; };
CULIFT_KERNEL float f(const P& p) { return p.x; }  // expected-error {{reference parameter 'p' of type 'const P &' is not supported}}
