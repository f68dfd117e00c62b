#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int n, ...) { return n; }  // expected-error {{'f' is variadic: variadic functions are not supported}}
