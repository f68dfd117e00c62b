#include <culift/annotate.hpp>
struct P { float x; int n; };
CULIFT_KERNEL float f(const P* p, int i) { return p[i].x; }  // expected-error {{the array of structs 'p' has type 'P', whose fields have different types ('x' is float, 'n' is int)}}
