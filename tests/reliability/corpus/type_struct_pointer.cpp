#include <culift/annotate.hpp>
struct P { float x, y; };
CULIFT_KERNEL float f(const P* p, int i) { return p[i].x; }  // expected-error {{parameter 'p' points to unsupported type 'const P'}}
