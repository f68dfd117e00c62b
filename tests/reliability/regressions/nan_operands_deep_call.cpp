// Regression: v + std::abs(v) of a NaN adds two different NaNs in a function deep enough to run on culift's stack: the call must carry differentNaNsMet from that thread
// Found by the differential tester (seed 13, program nan_operands_deep_call) and reduced automatically.
// o1[46]: native -O0 nan (0x7ff8000000000000), interpreter -nan (0xfff8000000000000) (i = 2, k = 2, o0 = unsigned short[64]{56244, 32, 53, 65534, ...}, s1 = 217, s0 = -nan (0xffc00000), o1 = double[64]{-10.63671875 (0xc025460000000000), 1.8055769797862195e-32 (0x3957700f05565cc6), 2 (0x4000000000000000), -13.53515625 (0xc02b120000000000), ...}, a0 = long long[64]{2, 3928458692484233066, 22, 12, ...}, j = 3, cko = unsigned long long[64]{0, 2, 0, 1, ...})
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: void nan_operands_deep_call_kernel
// culift-param: i i32 value 0
// culift-param: k i32 value 2
// culift-param: o0 u16 output -1
// culift-param: s1 u8 value -1
// culift-param: s0 f32 value -1
// culift-param: o1 f64 output -1
// culift-param: a0 i64 input -1
// culift-param: j i32 value 1
// culift-param: cko u64 output -1
// culift-args: 02000000 02000000 b4db20003500feff7be80100ffff0100d0caffffe1ff11ed000039000000ffff340000001c0000003c00000022003f0036c43a000a00feff3000dd0bc0ff1000ffff0000e3fffd3813000900ffff0000ffffffff3a00e6468ec2010057b7f3ff0000fdd5feff010032341d0002000100d6ffffffffff3000fbff1b00ef850100 d9 0000c0ff 00000000004625c0c65c56050f70573900000000000000400000000000122bc0000000000000f8ff0000000000000000000000000010fcbf6e084d76da58bc960000000000e41fc0000000000080e73f00000000003c2fc00000000000842c40176f938953caacfc2a2632e8597a9715000000000000f87fffffffffffffefff0000000000b8134000000000000000800000000000001000000000000000f0ff000000000020e33f00000000002a22c00000000000a0f9bf000000000000f8ff00000000004e28c00000000000642ec00000000000842c4000000000000000409949d8c70702dc670000000000280cc00000000000f018c03a7bb34ac63d1e8effffffffffffef7ff2ab62b788aa1e760000000000a8214001000000000000000000000000fa23400000000000942dc0ae785063a8bba12900000000008021c0000000000000f87f000000000080054000000000002818c00000000000a80f400000000000902e40000000000080c6bf050000000000f87f0000000000c42640000008000000f041000000000000b23f9c7500883ce4377e00000000000a2dc00000000000be2c4045c1dd7c2b4fc2070000000000f41cc0fecc5539a31576a500000000008811c0000000000000f87f050000000000f87f0000000000dc2c402d31f88b55921b9600000000008a20c07360cf2c9b24b7ed0000000000c01140 02000000000000006a7751f05db0843616000000000000000c00000000000000af8c92e3105b438afffffffffffffffffe35d7d09576b2a9d0ffffffffffffffffffffffffffff7f01000000000000002d00000000000000f5412dcd459941da0c401561f56d0c63000000000000000000fdb6c63d83884c01000000000000801400000000000000cdd2093e1af571c111000000000000000200000000000000ffffffffffffff7f00000000000000800100000000000080ffffffffffffff7f000000000000008000000000000000800000000000000080d8ffffffffffffff3500000000000000e2ffffffffffffff02000000000000000100000000000080dfffffffffffffff3600000000000000260000000000000002000000000000003600000000000000e004fdbb2844337bd6ffffffffffffffe8ffffffffffffff01000000000000800b000000000000006de3fbbce8f080efd8ffffffffffffff0100000000000080fbffffffffffffffc96c3472e34501c7c58da50afed12e4401000000000000803100000000000000ffffffffffffff7ffeffffffffffff7fe02a94ab823a82effbfffffffffffffff5ffffffffffffff0100000000000080e79a1ed10960319ee9ffffffffffffff000000000000000001000000000000003800000000000000c1ffffffffffffff01000000000000803100000000000000 03000000 00000000000000000200000000000000000000000000000001000000000000000000000000000000faffffffffffffffd7fffffffffffffff1ffffffffffffffdbffffffffffffff010000000000000000000000000000002a000000000000000500000000000000ffffffffffffffffd8ac9c3cf67dfa27daffffffffffffff01000000000000000d00000000000000c4ffffffffffffffcaffffffffffffff0000000000000000feffffffffffffff1100000000000000010000000000000025000000000000000200000000000000feffffffffffffffd6fffffffffffffffaffffffffffffffc1ffffffffffffffe6ffffffffffffff010000000000000000000000000000001c0000000000000000000000000000000c000000000000000100000000000000ccfffffffffffffffeffffffffffffff0100000000000000ccffffffffffffff1e000000000000000000000000000000ffffffffffffffff2000000000000000010000000000000013000000000000000100000000000000b8d3cc2eab3bba490200000000000000feffffffffffffffd8ffffffffffffffd1ffffffffffffff0000000000000000ffffffffffffffffe6ffffffffffffff4638a6710a2ee1b4849c3ae6864af2f7c2ffffffffffffffffffffffffffffff3a00000000000000020000000000000000000000000000002200000000000000
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

inline long long nan_operands_deep_call_h0(unsigned short q0, short q1, double q2, const long long* x) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  int c5 = 0;
  while (c5 < 6) {
    ++c5;
    q2 += std::tan((3.75f * (-0x1.3e16ap+9)));
    ck = culift_ck_mixd(ck, q2);
  }
  {
    const long long ckr = ((long long)((unsigned char)11));
    ck = culift_ck_mix(ck, ckr);
    ck = culift_ck_final(ck);
    return (long long)ck;
  }
}

CULIFT_KERNEL void nan_operands_deep_call_kernel(int i, int k, unsigned short* o0, unsigned char s1, float s0, double* o1, const long long* a0, int j, unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  if (((i & (3u + 26u)) <= (26u % 13u))) {
    if (false) {
      switch ((((int)(((unsigned short)2) * 34ULL)) & 7)) {
        case 5:
        case -4: {
          --s0;
          ck = culift_ck_mixf(ck, s0);
          unsigned char v10 = s1;
          ck = culift_ck_mix(ck, v10);
          break;
        }
        case 4:
        case 6: {
          float v11 = ((float)std::signbit(std::fmax(std::log2(s0), (-3.4028235e+38f))));
          ck = culift_ck_mixf(ck, v11);
        }
        case -3: {
          s1++;
          ck = culift_ck_mix(ck, s1);
          break;
        }
      }
    } else {
    }
  } else {
  }
  double v14 = (0x1.8ce68p+7 * (std::fmod(s0, s0) / (s0 + (-755.3037f))));
  ck = culift_ck_mixd(ck, v14);
  switch ((((int)((unsigned)(((signed char)15) | i) - (unsigned)(((-1) % 1073741824) + (((unsigned short)15) % 1073741824)))) % 5)) {
    case -2:
    case -4: {
      break;
    }
    case 6:
    case 5: {
      int c17 = 0;
      do {
        ++c17;
        for (int c21 = 0; c21 < 3; ++c21) {
          if (((!true) && nan_operands_deep_call_h0(((unsigned short)4294967295u), ((short)6), v14, a0))) {
          }
        }
      } while (c17 < 6);
      break;
    }
  }
  v14 = (v14 + std::abs(v14));
  ck = culift_ck_mixd(ck, v14);
  {
    const double cks = std::tgamma(v14);
    o1[(((int)((unsigned)((int)((unsigned)((int)((unsigned)((int)((unsigned)i * (unsigned)4)) + (unsigned)j)) * (unsigned)4)) + (unsigned)k))) & 63] = cks;
    ck = culift_ck_mixd(ck, cks);
  }
  cko[(((int)((unsigned)((int)((unsigned)((int)((unsigned)((int)((unsigned)i * (unsigned)4)) + (unsigned)j)) * (unsigned)4)) + (unsigned)k))) & 63] = culift_ck_final(ck);
  return;
}

