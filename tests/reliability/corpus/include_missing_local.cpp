#include <culift/annotate.hpp>
#include "missing_local_header.hpp"  // expected-error {{'missing_local_header.hpp' file not found}}
CULIFT_KERNEL int f(int a) { return a; }
