#include <culift/annotate.hpp>
#include <limits>
CULIFT_KERNEL double f(double x) {
  return x + (double)std::numeric_limits<long double>::epsilon();  // expected-error {{expression of type 'long double' is not supported}}
}
