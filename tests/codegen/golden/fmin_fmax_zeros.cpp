// std::fmin and std::fmax order -0.0 below +0.0 (IEEE 754-2019 minimumNumber / maximumNumber):
// the GPU's fminf / fmaxf do, and so does the interpreter. C++ leaves the sign of
// std::fmin(-0.0, +0.0) open (x86-64 builds differ between -O0 and -O2).
#include <cmath>

#include <culift/annotate.hpp>

// By i: -0.0 or +0.0 (bit 0), a NaN from i = 8 on (every fourth i).
inline float zeroA(int i) { return (i % 2 ? -1.0f : 1.0f) * 0.0f; }
inline float zeroOrNaN(int i) {
  const float zero = (i / 2 % 2 ? -1.0f : 1.0f) * 0.0f;
  return i >= 8 && i % 4 == 3 ? zero / zero : zero;
}

CULIFT_KERNEL float FminZeros(int i) { return std::fmin(zeroA(i), zeroOrNaN(i)); }
CULIFT_KERNEL float FmaxZeros(int i) { return std::fmax(zeroOrNaN(i), zeroA(i)); }
CULIFT_KERNEL double FminZerosDouble(int i) { return std::fmin((double)zeroOrNaN(i), (double)zeroA(i)); }
CULIFT_KERNEL double FmaxZerosDouble(int i) { return std::fmax((double)zeroA(i), (double)zeroOrNaN(i)); }
