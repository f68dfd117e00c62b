#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <culift/annotate.hpp>

#include "checksum_folds.hpp"

// Variants of GPU-leg finding p2348 (seed 20261203): -std::abs(s1) with s1 = +0.0, read by
// the checksum's signbit. Launched on both backends by scripts/compare-backends.sh.
CULIFT_KERNEL unsigned long long NzSignbit(float s1, int i) { return std::signbit(-std::abs(s1)) ? 1ULL : 0ULL; }
CULIFT_KERNEL unsigned long long NzSignbitFabs(float s1, int i) { return std::signbit(-std::fabs(s1)) ? 1ULL : 0ULL; }
CULIFT_KERNEL unsigned long long NzMixf(float s1, int i) { return culift_ck_mixf(0ULL, -std::abs(s1)); }
CULIFT_KERNEL unsigned long long NzLocal(float s1, int i) {
  float a = -std::abs(s1);
  return culift_ck_mixf(0ULL, a);
}
CULIFT_KERNEL unsigned long long NzArray(float s1, int i) {
  float arr[4] = {0.0f, 0.0f, -std::abs(s1), 0.0f};
  unsigned long long ck = 0ULL;
  for (int k = 0; k < 4; ++k) ck = culift_ck_mixf(ck, arr[k]);
  return ck;
}
CULIFT_KERNEL unsigned long long NzStdArray(float s1, int i) {
  std::array<float, 4> arr4 = {0.0f, 0.0f, (-std::abs(s1)), 0.0f};
  unsigned long long ck = 0ULL;
  ck = culift_ck_mixf(ck, arr4[0]);
  ck = culift_ck_mixf(ck, arr4[1]);
  ck = culift_ck_mixf(ck, arr4[2]);
  ck = culift_ck_mixf(ck, arr4[3]);
  return ck;
}
CULIFT_KERNEL unsigned long long NzStdArrayS1(float s1, int i) {
  std::array<float, 4> arr4 = {((float)(6.0 * (-0.0))), ((float)std::min(((short)(-10)), ((short)(-19)))),
                               (-std::abs(s1)), s1};
  unsigned long long ck = 0ULL;
  ck = culift_ck_mixf(ck, arr4[0]);
  ck = culift_ck_mixf(ck, arr4[1]);
  ck = culift_ck_mixf(ck, arr4[2]);
  ck = culift_ck_mixf(ck, arr4[3]);
  return ck;
}
CULIFT_KERNEL unsigned long long NzSignbitEach(float s1, int i) {
  std::array<float, 4> arr4 = {0.0f, 0.0f, (-std::abs(s1)), 0.0f};
  return (std::signbit(arr4[0]) ? 1ULL : 0ULL) | (std::signbit(arr4[1]) ? 2ULL : 0ULL) |
         (std::signbit(arr4[2]) ? 4ULL : 0ULL) | (std::signbit(arr4[3]) ? 8ULL : 0ULL);
}
CULIFT_KERNEL unsigned long long NzBits(float s1, int i) {
  std::array<float, 4> arr4 = {0.0f, 0.0f, (-std::abs(s1)), 0.0f};
  unsigned long long ck = 0ULL;
  for (float v : arr4) ck = ck * 3ULL + (v == 0.0f ? 1ULL : 0ULL) + (std::signbit(v) ? 10ULL : 0ULL);
  return ck;
}
