#include <culift/annotate.hpp>
CULIFT_KERNEL int f(decltype(nullptr) p, int a) { return a; }  // expected-error {{parameter 'p' has unsupported type 'decltype(nullptr)'}}
