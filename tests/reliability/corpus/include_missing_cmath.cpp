#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float a) {
  return std::sqrt(a);  // expected-error {{use of undeclared identifier 'std'}}
}
