#include <culift/annotate.hpp>
CULIFT_KERNEL int f(decltype(nullptr) p, int a) { return a; }  // corpus-error
