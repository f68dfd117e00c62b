#include <culift/annotate.hpp>
struct P { float x, y; };
CULIFT_KERNEL float f(P p) { return p.x; }  // corpus-error
