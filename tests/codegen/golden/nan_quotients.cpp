// Values the device compiler must not take for numbers, or fold by a rule that does not hold.
// It assumes a quotient of two numbers is a number, which 0/0 and inf/inf are not: the emitted
// CUDA divides by culift_opaque(divisor) unless the divisor is a finite, nonzero literal. And a
// char or short conversion of literals only stays a conversion it folds: through culift_narrow
// the device assembler saw min(x, 0) == 0 and answered it wrongly for x > 0.
#include <culift/annotate.hpp>

#include <algorithm>

CULIFT_KERNEL float ZeroOverZero(int i) {
  float v = (float)(33 + 0 * i);
  v -= v;
  v /= v;
  return v != v ? 1.0f : 2.0f;
}
CULIFT_KERNEL float InfOverInf(int i) {
  const float big = (float)(i + 1) * 3.0e38f * 10.0f;
  const float q = big / big;
  return q == q ? q : -1.0f;
}
CULIFT_KERNEL float HalfOf(float x) { return x / 2.0f; }
CULIFT_KERNEL int MinOfNarrowed(int i) {
  if (std::min((unsigned short)(-2147483647 - 1), (unsigned short)i)) return 1;
  return 2;
}
