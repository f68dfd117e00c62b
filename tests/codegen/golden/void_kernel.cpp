// A void kernel writes through its non-const arrays; no out array.
#include <culift/annotate.hpp>

CULIFT_KERNEL void VoidKernel(const float* x, float* y, float* z, float alpha, int i) {
  y[i] = alpha * x[i] + y[i];
  z[i] = y[i] * 0.5f;
}
