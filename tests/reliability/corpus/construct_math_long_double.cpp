#include <culift/annotate.hpp>
#include <cmath>
CULIFT_KERNEL double f(double x) {
  return (double)std::sqrt((long double)x);  // expected-error {{expression of type 'long double' is not supported}}
}
