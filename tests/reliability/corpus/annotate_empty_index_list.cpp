#include <culift/annotate.hpp>
[[clang::annotate("culift:index=")]] float f(const float* x, int i) { return x[i]; }  // expected-error {{CULIFT_KERNEL_INDEX on 'f' has an empty index name}}
