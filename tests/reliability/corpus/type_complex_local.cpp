#include <culift/annotate.hpp>
#include <complex>
CULIFT_KERNEL float f(float x) {
  std::complex<float> z(x, x);  // corpus-error
  return x;
}
