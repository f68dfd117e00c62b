// Writing to an input array is Clang's error, reported through the same channel.
#include <culift/annotate.hpp>

CULIFT_KERNEL void writeInput(const float* x, int i) {
  x[i] = 1.0f;  // expected-error {{read-only variable is not assignable}}
}
