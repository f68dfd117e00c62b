// Errors of different stages in one run: the lifter's (I/O in a body, a library type as a
// parameter) and the classifier's (an index parameter that is not an integer) in kernels side by
// side. The classifier checks the kernels that lifted cleanly even when others did not.
#include <culift/annotate.hpp>
#include <cstdio>
#include <vector>

CULIFT_KERNEL float Logs(float x) {
  std::printf("%f\n", x);  // expected-error {{I/O is not available in culift kernels}}
  return x;
}
CULIFT_KERNEL float Library(std::vector<float> v, int i) { return v[i]; }  // expected-error {{parameter 'v' has class type 'std::vector<float>': library types are not supported}}
CULIFT_KERNEL float FloatIndex(const float* x, float i) { return x[0] * i; }  // expected-error {{index parameter 'i' of 'FloatIndex' must be an integer passed by value}}
