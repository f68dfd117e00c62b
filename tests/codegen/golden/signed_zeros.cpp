// Comparisons and selections with a zero constant keep C++'s signed zeros on the device:
// std::max(-0.0f, +0.0f) is -0.0f and std::min(-0.0f, 0.0f) is -0.0f, as C++ defines them (the
// first argument when neither is less), not the +0.0f / -0.0f a max / min instruction gives.
#include <algorithm>

#include <culift/annotate.hpp>

// -0.0f, +0.0f or +0.0f by i: the zeros every kernel below compares.
inline float zeroOf(int i) { return (float)(i % 3 - 1) * 0.0f; }

CULIFT_KERNEL float MaxNegZero(const float* a, int i) { return std::max(-0.0f, zeroOf(i) + a[i] * 0.0f); }
CULIFT_KERNEL float MinPosZero(const float* a, int i) { return std::min(zeroOf(i) + a[i] * 0.0f, 0.0f); }
CULIFT_KERNEL float SelectAboveNegZero(int i) {
  const float v = zeroOf(i);
  return (v > -0.0f) ? v : -0.0f;
}
CULIFT_KERNEL float SelectBelowZero(int i) {
  const float v = zeroOf(i);
  return (0.0f > v) ? v : 0.0f;
}
CULIFT_KERNEL float RunningMin(int i) {
  float m = 0.0f;
  const float v = zeroOf(i);
  if (v < m) m = v;
  return m;
}
CULIFT_KERNEL double MaxNegZeroDouble(int i) { return std::max(-0.0, (double)zeroOf(i)); }
CULIFT_KERNEL double MinPosZeroDouble(int i) { return std::min((double)zeroOf(i), 0.0); }
// A zero that is an integer constant converted, not a literal: the device compiler folds it just
// the same, and made the running minimum of a row a min instruction (seed 20261235, program 3782
// of the GPU leg: a5 = {-0.0f, ...} gave -0.0f where C++ keeps the +0.0f it started from).
CULIFT_KERNEL float RunningMinFromInt(int i) {
  float m = (float)((unsigned char)((unsigned short)0));
  const float v = zeroOf(i);
  m = (v < m) ? v : m;
  return m;
}
CULIFT_KERNEL double RunningMinFromBool(int i) {
  double m = (double)(false && true);
  const double v = (double)zeroOf(i);
  if (v < m) m = v;
  return m;
}
