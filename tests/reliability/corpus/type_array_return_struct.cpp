#include <culift/annotate.hpp>
struct R { int a; };
CULIFT_KERNEL R f(int a) { return R{a}; }  // expected-error {{kernel 'f' returns the struct 'R': a kernel returns a scalar}}
