#include <culift/annotate.hpp>
struct P { float x, y; };
CULIFT_KERNEL float f(P p) { return p.x; }  // expected-error {{parameter 'p' has class type 'P': structs, classes, unions and library types are not supported}}
