#include <culift/annotate.hpp>
#include <cmath>
CULIFT_KERNEL double f(double x) {
  return (double)std::sqrt((long double)x);  // corpus-error
}
