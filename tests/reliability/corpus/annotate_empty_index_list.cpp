#include <culift/annotate.hpp>
[[clang::annotate("culift:index=")]] float f(const float* x, int i) { return x[i]; }  // corpus-error
