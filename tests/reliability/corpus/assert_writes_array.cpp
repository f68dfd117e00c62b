#include <culift/annotate.hpp>
#include <cassert>
bool fill(float* y, int i) {
  y[i] = 1.0f;
  return true;
}
CULIFT_KERNEL void f(float* y, int i) {
  assert(fill(y, i));  // expected-error {{the condition of assert changes a variable or an array: GPU kernels compile assert out (as NDEBUG does), so the change would happen on the CPU only}}
}
