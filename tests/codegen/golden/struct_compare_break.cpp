// Narrowing and widening conversions take their value through the prelude's culift_hide, which
// the device assembler cannot see through either: with culift_opaque's mov it folded the
// comparison of two structs of shorts built from `(short)v7` to a constant and ran a loop of two
// steps whose break never happens once (seed 20261220, program 2281 of the GPU leg, reduced). The
// GPU golden test compares the backends.
#include <array>
#include <cmath>
#include <culift/annotate.hpp>

// The differential tester's checksum folds, as its programs carry them.
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

struct Shorts {
  short m0 = 31;
  short m1 = 13;
  short m2;
  short m3 = -19;
  bool operator==(const Shorts& o) const { return (m0 == o.m0) && (m1 == o.m1) && (m2 == o.m2) && (m3 == o.m3); }
};

CULIFT_KERNEL unsigned long long StructCompareBreak(int s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  std::array<float, 2> arr1 = {};
  ck = culift_ck_mixf(ck, arr1[0]);
  ck = culift_ck_mixf(ck, arr1[1]);
  for (float e2 : arr1) {
    int v7 = 28;
    ck = culift_ck_mix(ck, v7);
    if ((Shorts{(short)21, (short)v7} == Shorts{(short)v7, (short)10})) break;
  }
  return ck;
}
