// A float's magnitude is culift_fabsf, which clears the sign bit in inline PTX: the device
// assembler took fabsf's result for a number, so `-3.25f < fabsf(v)` and `fabsf(v) >= 0.0f` were
// true for a NaN v on the GPU. Here v is a NaN for every x (the square root of a negative number),
// so both comparisons are false, as in C++; the GPU golden test compares the backends.
#include <cmath>
#include <culift/annotate.hpp>

CULIFT_KERNEL int MagnitudeOfNan(const float* x, int i) {
  const float v = std::sqrt(-1.0f - std::fabs(x[i]));
  return (-3.25f < std::fabs(v) ? 1 : 0) + (std::fabs(v) >= 0.0f ? 2 : 0) + (std::abs(v) > -1.0f ? 4 : 0);
}

CULIFT_KERNEL int MagnitudeOfNanDouble(const double* x, int i) {
  const double v = std::sqrt(-1.0 - std::fabs(x[i]));
  return (-3.25 < std::fabs(v) ? 1 : 0) + (std::fabs(v) >= 0.0 ? 2 : 0);
}
