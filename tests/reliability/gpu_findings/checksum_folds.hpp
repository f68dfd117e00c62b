// The checksum folds of the differential tester's programs (its generator writes them into each
// program), shared by the reproductions here.
#pragma once
#include <cmath>

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
