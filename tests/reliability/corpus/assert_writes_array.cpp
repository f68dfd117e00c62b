#include <culift/annotate.hpp>
#include <cassert>
bool fill(float* y, int i) {
  y[i] = 1.0f;
  return true;
}
CULIFT_KERNEL void f(float* y, int i) {
  assert(fill(y, i));  // corpus-error
}
