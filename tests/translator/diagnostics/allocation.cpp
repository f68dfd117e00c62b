// No dynamic allocation in kernels.
#include <culift/annotate.hpp>

CULIFT_KERNEL float allocate(int n) {
  (void)new float[n];  // expected-error {{new is not supported}}
  return 0.0f;
}

CULIFT_KERNEL void release(float* x, int i) {
  x[i] = 0.0f;
  delete[] x;  // expected-error {{delete is not supported}}
}
