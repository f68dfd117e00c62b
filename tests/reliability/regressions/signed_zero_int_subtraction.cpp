// Regression: GCC 12 folds `0.0f - q` (q an integer) into -(float)q even at -O0: -0.0 where q is 0 against C++'s +0.0, so the native legs build with Clang
// Found by the differential tester (seed 20261211, program p11) and reduced automatically.
// result: native -O0 6867940541881714884, interpreter 6803874355918295155 (a0 = double[64]{2.91796875 (0x4007580000000000), 4.9406564584124654e-324 (0x0000000000000001), -nan (0xfff8000000000000), 10.59375 (0x4025300000000000), ...}, a1 = unsigned short[64]{32, 0, 0, 65486, ...}, j = 1, i = 7)
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: u64 signed_zero_int_subtraction_kernel
// culift-param: a0 f64 input -1
// culift-param: a1 u16 input -1
// culift-param: j i64 value 1
// culift-param: i i64 value 0
// culift-args: 00000000005807400100000000000000000000000000f8ff00000000003025400000000000f80ac00000000000001000adb626f4a9f4249bde88e282852766880000000000ec23409c7500883ce4377e0000000000a0f93f000000000080febf00000000000010009c7500883ce4377e2c33d9bf56c6d87b0000000000062c4000000000000004c00000000000322b40010000000000008000000000000010000000000000b02bc0000000000000f8ff000000000004294000000000002226c0050000000000f87f0000000000d0fa3f01000000000000800000000000e80ec0050000000000f87f0100000000000080000000000060e03f0000000000701cc000000000008a29c0000000000000f87f13bf3af146a9f19944b8db7eaba33c6c0100000000000080fca9f1d24d62503f000000000000f0ff000000000000e03f0000000000001000fca9f1d24d62503f0c7499ae09722b5e0000000000000000000000000000f87f60d254521eb6ae8070a8d1605e701add0000000000c0e8bf9bae7692121e2ec80000000000a22540000000000004234000000000003419c000000000001c16c001000000000000004bd257bdcab09ac8000000000000f87f9e6fc907a76a5bed534322e9a27c90cc0000000000f823c0000008000000f0410000000000001000000000000000aa3f00000000006a26400000000000000000 200000000000ceff0000fcff0100c2ff9a3312000800ffffceff0000fffff1ff14003178ffff01000000feff70c1172d3c00e5ff0c000200d3ffc5ffffff2c00d2fff5cd02000100e3ff18000100010000003400cf3700003000ffff1a00f3ff00008c480100feffe5ff0100ddfffeffa6b4ffff44941200feff0000ffff2600 0100000000000000 0700000000000000
#include <culift/annotate.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#ifndef CULIFT_CHECKSUM_FOLDS
#define CULIFT_CHECKSUM_FOLDS
inline unsigned long long culift_ck_mix(unsigned long long h, unsigned long long v) {
  return h * 0x100000001b3ULL + v;
}

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
  while (a >= 0x1p+55f) { a *= 0x1p-32f; e += 32ULL; }
  while (a >= 0x1p+31f) { a *= 0x1p-8f; e += 8ULL; }
  while (a >= 0x1p+24f) { a *= 0x1p-1f; e += 1ULL; }
  while (a < 0x1p-8f) { a *= 0x1p+32f; e -= 32ULL; }
  while (a < 0x1p+16f) { a *= 0x1p+8f; e -= 8ULL; }
  while (a < 0x1p+23f) { a *= 0x1p+1f; e -= 1ULL; }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), e * 2ULL + s);
}

inline unsigned long long culift_ck_mixd(unsigned long long h, double x) {
  if (!(x == x)) return culift_ck_mix(h, 1ULL);
  const unsigned long long s = std::signbit(x) ? 1ULL : 0ULL;
  double a = std::fabs(x);
  if (a > 1.7976931348623157e+308) return culift_ck_mix(h, 2ULL + s);
  if (a == 0.0) return culift_ck_mix(h, 4ULL + s);
  unsigned long long e = 4096ULL;
  while (a >= 0x1p+116) { a *= 0x1p-64; e += 64ULL; }
  while (a >= 0x1p+60) { a *= 0x1p-8; e += 8ULL; }
  while (a >= 0x1p+53) { a *= 0x1p-1; e += 1ULL; }
  while (a < 0x1p-11) { a *= 0x1p+64; e -= 64ULL; }
  while (a < 0x1p+45) { a *= 0x1p+8; e -= 8ULL; }
  while (a < 0x1p+52) { a *= 0x1p+1; e -= 1ULL; }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), e * 2ULL + s);
}

#endif

struct signed_zero_int_subtraction_S0 {
  double m0;
  float w1[3] = {2.0f};
  bool m2 = true;
  float m3;
  signed_zero_int_subtraction_S0() = default;
  signed_zero_int_subtraction_S0(double a0, bool a1, float a2) : m0(a0), m2(a1), m3(a2) {}
};

struct signed_zero_int_subtraction_S1 {
  unsigned long long w0[2] = {};
  short w1[2] = {((short)35), ((short)(-8))};
  signed_zero_int_subtraction_S1 operator+(const signed_zero_int_subtraction_S1& o) const {
    signed_zero_int_subtraction_S1 r = *this;
    r.w0[0] = (unsigned long long)(w0[0] + o.w0[0]);
    r.w0[1] = (unsigned long long)(w0[1] + o.w0[1]);
    r.w1[0] = (short)(w1[0] + o.w1[0]);
    r.w1[1] = (short)(w1[1] + o.w1[1]);
    return r;
  }
  bool operator==(const signed_zero_int_subtraction_S1& o) const { return (w0[0] == o.w0[0]) && (w0[1] == o.w0[1]) && (w1[0] == o.w1[0]) && (w1[1] == o.w1[1]); }
};

inline float signed_zero_int_subtraction_h0(long long q0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  {
    const float ckr = (0.0f - q0);
    ck = culift_ck_mixf(ck, ckr);
    ck = culift_ck_final(ck);
    return ckr != ckr ? ckr : (float)(ck >> 40);
  }
}

CULIFT_KERNEL unsigned long long signed_zero_int_subtraction_kernel(const double* a0, const unsigned short* a1, long long j, long long i) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  float v19 = signed_zero_int_subtraction_h0(0LL);
  ck = culift_ck_mixf(ck, v19);
  {
    const unsigned long long ckr = 11ULL;
    ck = culift_ck_mix(ck, ckr);
    ck = culift_ck_final(ck);
    return (unsigned long long)ck;
  }
}

