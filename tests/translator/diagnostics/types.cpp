// long double, complex numbers and vector types.
#include <culift/annotate.hpp>
#include <complex>

CULIFT_KERNEL long double wide(double x) { return x; }  // expected-error {{return type 'long double' of 'wide' is not supported}}

CULIFT_KERNEL double usesLongDouble(double x) {
  long double y = x;  // expected-error {{local variable 'y' has unsupported type 'long double'}}
  return x * 2.0L;  // expected-error {{expression of type 'long double' is not supported}}
}

CULIFT_KERNEL float usesComplex(float x) {
  std::complex<float> z(x, x);  // expected-error {{local variable 'z' has class type}}
  _Complex float c = x;  // expected-error {{local variable 'c' has unsupported type}}
  return x;
}

typedef float float4v __attribute__((vector_size(16)));
CULIFT_KERNEL float usesVector(float4v v) { return v[0]; }  // expected-error {{parameter 'v' has unsupported type}}
