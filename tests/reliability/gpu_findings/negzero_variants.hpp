#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <culift/annotate.hpp>

#ifndef CULIFT_CHECKSUM_FOLDS
#define CULIFT_CHECKSUM_FOLDS
inline unsigned long long culift_ck_mix(unsigned long long h, unsigned long long v) { return h * 0x100000001b3ULL + v; }

inline unsigned long long culift_ck_final(unsigned long long h) {
  h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdULL;
  h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

inline unsigned long long culift_ck_mixf(unsigned long long h, float x) {
  if (!(x == x)) return culift_ck_mix(h, 1ULL);
  const unsigned long long s = std::signbit(x) ? 1ULL : 0ULL;
  float a = std::fabs(x);
  if (a > 3.40282347e+38f) return culift_ck_mix(h, 2ULL + s);
  if (a == 0.0f) return culift_ck_mix(h, 4ULL + s);
  unsigned long long e = 4096ULL;
  while (a >= 0x1p+55f) {
    a *= 0x1p-32f;
    e += 32ULL;
  }
  while (a >= 0x1p+31f) {
    a *= 0x1p-8f;
    e += 8ULL;
  }
  while (a >= 0x1p+24f) {
    a *= 0x1p-1f;
    e += 1ULL;
  }
  while (a < 0x1p-8f) {
    a *= 0x1p+32f;
    e -= 32ULL;
  }
  while (a < 0x1p+16f) {
    a *= 0x1p+8f;
    e -= 8ULL;
  }
  while (a < 0x1p+23f) {
    a *= 0x1p+1f;
    e -= 1ULL;
  }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), e * 2ULL + s);
}

inline unsigned long long culift_ck_mixd(unsigned long long h, double x) {
  if (!(x == x)) return culift_ck_mix(h, 1ULL);
  const unsigned long long s = std::signbit(x) ? 1ULL : 0ULL;
  double a = std::fabs(x);
  if (a > 1.7976931348623157e+308) return culift_ck_mix(h, 2ULL + s);
  if (a == 0.0) return culift_ck_mix(h, 4ULL + s);
  unsigned long long e = 4096ULL;
  while (a >= 0x1p+116) {
    a *= 0x1p-64;
    e += 64ULL;
  }
  while (a >= 0x1p+60) {
    a *= 0x1p-8;
    e += 8ULL;
  }
  while (a >= 0x1p+53) {
    a *= 0x1p-1;
    e += 1ULL;
  }
  while (a < 0x1p-11) {
    a *= 0x1p+64;
    e -= 64ULL;
  }
  while (a < 0x1p+45) {
    a *= 0x1p+8;
    e -= 8ULL;
  }
  while (a < 0x1p+52) {
    a *= 0x1p+1;
    e -= 1ULL;
  }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), e * 2ULL + s);
}

#endif

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
