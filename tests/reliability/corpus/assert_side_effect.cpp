#include <culift/annotate.hpp>
#include <cassert>
CULIFT_KERNEL int f(int n) {
  assert(++n > 0);  // expected-error {{the condition of assert changes a variable or an array: GPU kernels compile assert out (as NDEBUG does), so the change would happen on the CPU only}}
  return n;
}
