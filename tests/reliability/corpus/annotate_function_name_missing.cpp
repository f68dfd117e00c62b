#include <culift/annotate.hpp>
int g(int a) { return a; }
// expected-error@file {{no functions annotated with CULIFT_KERNEL in}}
