#include <culift/annotate.hpp>
struct R { int a; };
CULIFT_KERNEL R f(int a) { return R{a}; }  // expected-error {{return type 'R' of 'f' is not supported}}
