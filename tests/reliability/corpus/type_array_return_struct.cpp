#include <culift/annotate.hpp>
struct R { int a; float v[2]; };
CULIFT_KERNEL R f(int a) { return R{a, {1.0f, 2.0f}}; }  // expected-error {{the result of kernel 'f' has type 'R', whose field 'v' is an array: not supported in an array of structs}}
