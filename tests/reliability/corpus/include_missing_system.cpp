#include <culift/annotate.hpp>
#include <no_such_header_culift.h>  // expected-error {{'no_such_header_culift.h' file not found}}
CULIFT_KERNEL int f(int a) { return a; }
