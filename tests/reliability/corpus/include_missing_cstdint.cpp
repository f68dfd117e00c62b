#include <culift/annotate.hpp>
CULIFT_KERNEL std::int32_t f(std::int32_t a) { return a; }  // expected-error {{use of undeclared identifier 'std'}}
