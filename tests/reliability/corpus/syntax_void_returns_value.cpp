#include <culift/annotate.hpp>
CULIFT_KERNEL void f(float* o, int i) {
  return 1;  // corpus-error
}
