// Compound assignment: C++ semantics, an array element evaluated once.
#include <culift/annotate.hpp>

CULIFT_KERNEL void CompoundAssign(float* out, const int* idx, int i) {
  int n = i;
  n += 2.5;        // computed in double, stored as int
  n <<= 1;
  n %= 7;
  unsigned char small = 250;
  small += 10;     // computed in int, wraps on store
  out[idx[i]] *= 2.0f;
  out[i] -= n + small;
}
