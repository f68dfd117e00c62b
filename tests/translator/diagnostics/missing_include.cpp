// A missing header is a Clang error at the #include line.
#include <culift/annotate.hpp>
#include "does_not_exist.hpp"  // expected-error {{'does_not_exist.hpp' file not found}}

CULIFT_KERNEL float f(float x) { return x; }
