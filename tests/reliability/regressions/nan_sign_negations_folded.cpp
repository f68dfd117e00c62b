// Regression: GCC folds -a * -0.0 into a * 0.0 even at -O0, so a NaN's sign differs from the interpreter's: NaN payloads are compared, not signs
// Found by the differential tester (seed 13, program nan_sign_negations_folded) and reduced automatically.
// o0[27]: native -O0 -nan (0xffc00000), interpreter nan (0x7fc00000) (o0 = float[64]{5.68359375 (0x40b5e000), 2 (0x40000000), -6.234375 (0xc0c78000), 0.00100000005 (0x3a83126f), ...}, i = 27, s1 = 5.10429839e+23 (0x66d82cea), s0 = false, o1 = long long[64]{-50, -9223372036854775808, 7702947421541674618, -9223372036854775807, ...}, cko = unsigned long long[64]{5183931406370727013, 9, 20, 9080456956680899285, ...})
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: void nan_sign_negations_folded_kernel
// culift-param: o0 f32 output -1
// culift-param: i i64 value 0
// culift-param: s1 f32 value -1
// culift-param: s0 bool value -1
// culift-param: o1 i64 output -1
// culift-param: cko u64 output -1
// culift-args: 00e0b540000000400080c7c06f12833a0040e8c0444fbd35008036c100c08fc00070624100c07dc100a0b9400000003f0000807f00007fbf4f1fc98f0000008001000000748f7d1d0000800000805dc101000000006025c100e00541ac419c6c00008000ec78ad60ffff7fff0000c07f000020c00000a9c0000000400000c07f010000cf00c0a3400000004f6f12833a00d079c100202bc10100000000c0b7408cf644cb00705a410060dd400000008000000080008013c100e070c100000040005021c1006051413da9e242552b15700000153f0100000000a062c1ec245e9b00701b41000000001f148aca00000040288e0b9d0000003f7bfda06a00e0d840 1b00000000000000 ea2cd866 00 ceffffffffffffff00000000000000807aae8030de5de66a0100000000000080000000000000000007000000000000000200000000000000f8ffffffffffffffecffffffffffffff778ccb0db13a847eebffffffffffffffffffffffffffff7ff2e869205fcdf449be1afa269e3ba857feffffffffffff7f010000000000000031000000000000001e0396f60afeea4a0000000000000080ecffffffffffffffa8bcc6b31868f677e0fffffffffffffff3318babeac59dfd1700000000000000ffffffffffffffffffffffffffffffff1b00000000000000ffffffffffffffff01000000000000001800000000000000feffffffffffff7f29000000000000001e00000000000000fdffffffffffffffc4ffffffffffffffc9ffffffffffffff3401101a654b2fa7c7ffffffffffffffd8ffffffffffffffd3ffffffffffffffe8ffffffffffffffffffffffffffffffdafffffffffffffffeffffffffffff7fecffffffffffffff0100000000000000feffffffffffff7febffffffffffffffffffffffffffffff02000000000000000000000000000080feffffffffffff7fffffffffffffff7f00000000000000801300000000000000feffffffffffff7ffeffffffffffff7f0900000000000000020000000000000001000000000000800100000000000080010000000000008013000000000000000100000000000080 65e4b7002606f14709000000000000001400000000000000d58a30e57d43047e00000000000000002400000000000000feffffffffffffff27000000000000003f000000000000000200000000000000c9ffffffffffffffffffffffffffffffcbffffffffffffff5e070e2b88fbb09df2ffffffffffffff1f000000000000000c00000000000000ffffffffffffffff2c000000000000002200000000000000edffffffffffffffcdffffffffffffff25000000000000000c00000000000000f3ffffffffffffff3000000000000000edffffffffffffffd5e377553edc8546ffffffffffffffff2b000000000000000200000000000000020000000000000001000000000000000200000000000000010000000000000001000000000000000200000000000000cbffffffffffffff01000000000000000000000000000000f3ffffffffffffffba21c7acb26d1fa700000000000000003e00000000000000e2ffffffffffffff250000000000000000000000000000000100000000000000dcffffffffffffff00000000000000000000000000000000ffffffffffffffff0000000000000000ffffffffffffffffffffffffffffffffffffffffffffffff9c072de3adc0228bfcffffffffffffffccfffffffffffffffeffffffffffffff7aa92a77ef0afc98dbffffffffffffffffffffffffffffffd7ffffffffffffff
#include <culift/annotate.hpp>
#include <algorithm>
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

inline signed char nan_sign_negations_folded_to_2_from_10(float x) {
  if (!(x == x)) return ((signed char)0);
  if (x <= (-0x1p+7f)) return ((signed char)(-128));
  if (x >= 0x1p+7f) return ((signed char)127);
  return (signed char)x;
}

inline unsigned nan_sign_negations_folded_to_7_from_11(double x) {
  if (!(x == x)) return 0u;
  if (x <= 0.0) return 0u;
  if (x >= 0x1p+32) return 4294967295u;
  return (unsigned)x;
}

inline long long nan_sign_negations_folded_to_8_from_10(float x) {
  if (!(x == x)) return 0LL;
  if (x <= (-0x1p+63f)) return (-9223372036854775807LL - 1);
  if (x >= 0x1p+63f) return 9223372036854775807LL;
  return (long long)x;
}

inline unsigned long long nan_sign_negations_folded_to_9_from_11(double x) {
  if (!(x == x)) return 0ULL;
  if (x <= 0.0) return 0ULL;
  if (x >= 0x1p+64) return 18446744073709551615ULL;
  return (unsigned long long)x;
}

CULIFT_KERNEL void nan_sign_negations_folded_kernel(float* o0, long long i, float s1, bool s0, long long* o1, unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  bool v0 = ((bool)(std::abs((i % 1073741824)) ^ ((long long)((unsigned long long)39LL - (unsigned long long)(-4LL)))));
  ck = culift_ck_mix(ck, v0);
  const signed char arr1[2] = {nan_sign_negations_folded_to_2_from_10(4.25f)};
  ck = culift_ck_mix(ck, arr1[0]);
  ck = culift_ck_mix(ck, arr1[1]);
  double v2 = ((double)(std::max(6.75, 0x1.aab96p+9), (28ULL % 5ULL)));
  ck = culift_ck_mixd(ck, v2);
  unsigned long long v3 = 34ULL;
  ck = culift_ck_mix(ck, v3);
  v0 = v0;
  ck = culift_ck_mix(ck, v0);
  ++s1;
  ck = culift_ck_mixf(ck, s1);
  for (short c4 = ((short)0); c4 < ((short)3); ++c4) {
    double v5 = ((double)((short)(~(-11))));
    ck = culift_ck_mixd(ck, v5);
    unsigned c6 = 0u;
    do {
      ++c6;
      if (v0) {
        v2 = ((double)((v3 <= v3) ? v3 : v3));
        ck = culift_ck_mixd(ck, v2);
        if (std::isinf(std::ceil((-2.5)))) {
          break;
        }
      }
      switch ((c4 & 7)) {
        case 0: {
          if (true) {
            break;
          }
          unsigned char v7 = ((!(s0 && s0)), (v0 ? ((unsigned char)29) : (i, ((unsigned char)40))));
          ck = culift_ck_mix(ck, v7);
          break;
        }
        case 6:
        case -1: {
          s0 = s0;
          ck = culift_ck_mix(ck, s0);
          if ((6.75f, v0)) {
            continue;
          }
          break;
        }
        case 7: {
          s0 = false;
          ck = culift_ck_mix(ck, s0);
          break;
        }
      }
    } while (c6 < 4u);
  }
  s1 = ((-s1) * std::sqrt(std::clamp(s1, (-3.75f), (-1.5f))));
  ck = culift_ck_mixf(ck, s1);
  {
    const float cks = ((-6.5f) + ((float)(-2147483647 - 1)));
    o0[(i) & 63] = cks;
    ck = culift_ck_mixf(ck, cks);
  }
  s0 = ((bool)s1);
  ck = culift_ck_mix(ck, s0);
  float v8 = ((float)((-(v2 / s1)) * (-0.0)));
  ck = culift_ck_mixf(ck, v8);
  for (int c9 = 0; c9 < 5; ++c9) {
    if ((((25u) & 3) != 0 && ((nan_sign_negations_folded_to_7_from_11((v2 * v2))) / ((25u) & 3)) > 1)) {
      if (((short)26)) {
        if (((true ? ((unsigned char)39) : ((unsigned char)31)) <= ((unsigned char)c9))) {
          continue;
        }
      } else {
        v3 = v3;
        ck = culift_ck_mix(ck, v3);
        {
          const long long cks = nan_sign_negations_folded_to_8_from_10((6.0f * (-1.75f)));
          o1[(i) & 63] = cks;
          ck = culift_ck_mix(ck, cks);
        }
      }
    } else {
      if (s0) {
        v3 = v3;
        ck = culift_ck_mix(ck, v3);
        unsigned v10 = 34u;
        ck = culift_ck_mix(ck, v10);
        if (v0) {
          break;
        }
      } else {
        s0 = false;
        ck = culift_ck_mix(ck, s0);
        if ((!(((short)31) < ((short)25)))) {
          break;
        }
      }
    }
  }
  {
    const float cks = (v8 - v8);
    o0[(i) & 63] = cks;
    ck = culift_ck_mixf(ck, cks);
  }
  {
    const long long cks = i;
    o1[(i) & 63] = cks;
    ck = culift_ck_mix(ck, cks);
  }
  cko[(i) & 63] = culift_ck_final(ck);
  return;
}

