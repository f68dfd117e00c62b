// Literals keep their exact C++ type in the emitted CUDA.
#include <culift/annotate.hpp>

CULIFT_KERNEL long long Literals(long long a, unsigned u, unsigned long long w, float f, double d) {
  long long big = 9223372036854775807LL;
  long long small = -9223372036854775807LL - 1;
  unsigned long long all = 18446744073709551615ULL;
  char c = 'a';
  float tiny = 1e-12f;
  double third = 1.0 / 3.0;
  float half = 0.5f;
  return (a - 8) + big + small + (long long)(all & w) + (long long)(u + 1u) + c + (long long)(tiny + f + half) +
         (long long)(third * d);
}
