#include <culift/annotate.hpp>
typedef float v4 __attribute__((vector_size(16)));
CULIFT_KERNEL float f(v4 v) { return v[0]; }  // expected-error {{parameter 'v' has unsupported type 'v4'}}
