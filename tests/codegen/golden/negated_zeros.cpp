// A floating negation keeps C++'s signed zeros on the device: -std::abs(x) of +0.0 is -0.0, also
// once |x| == 0 has been tested. The device assembler negated a value it knew to be zero as an
// integer, which gives +0.0; the emitted CUDA negates through culift_neg, a flip of the sign bit.
#include <cmath>

#include <culift/annotate.hpp>

// 1 for -0.0, 0 for +0.0, 2 for anything else.
inline unsigned zeroSign(float x) {
  const float a = std::abs(x);
  if (a == 0.0f) return std::signbit(x) ? 1u : 0u;
  return 2u;
}

CULIFT_KERNEL unsigned NegAbsZeroInArray(const float* a, int i) {
  const float z = std::abs(a[i]) * 0.0f;  // +0.0 for every finite a[i]
  float v[4] = {0.0f, 0.0f, -std::abs(z), 0.0f};
  unsigned r = 0u;
  for (int k = 0; k < 4; ++k) r = r * 3u + zeroSign(v[k]);
  return r;
}
CULIFT_KERNEL double NegDouble(const double* a, int i) {
  const double z = std::abs(a[i]) * 0.0;
  return std::abs(z) == 0.0 ? -z : z;
}
