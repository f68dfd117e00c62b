#include <culift/annotate.hpp>
#include <complex>
CULIFT_KERNEL float f(float x) {
  std::complex<float> z(x, x);  // expected-error {{local variable 'z' has class type 'std::complex<float>': library types are not supported}}
  return x;
}
