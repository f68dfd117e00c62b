#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a);  // expected-error {{annotated function 'f' has no body}}
