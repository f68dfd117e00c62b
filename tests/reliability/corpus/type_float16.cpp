#include <culift/annotate.hpp>
CULIFT_KERNEL float f(_Float16 h) { return (float)h; }  // expected-error {{parameter 'h' has unsupported type '_Float16'}}
