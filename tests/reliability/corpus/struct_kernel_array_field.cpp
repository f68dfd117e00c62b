#include <culift/annotate.hpp>
struct Poly { float c[4]; };
CULIFT_KERNEL float f(Poly p, float x) { return p.c[0] + x; }  // expected-error {{parameter 'p' of a kernel has an array field ('c'): a kernel takes the fields of a struct as scalar parameters}}
