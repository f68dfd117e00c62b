// Regression: GCC 12 at -O0 with -frounding-math miscompiled this const array initialized with (float)1e-40: the native legs compile without -frounding-math
// Found by the differential tester (seed 13, program const_array_inexact_init) and reduced automatically.
// cko[37]: -O0 15304306600838965696, -O2 13227466211641645562 (s0 = 35, o0 = long long[64]{-3242730813100931801, -7834583644498922146, -41, -13, ...}, a0 = float[64]{-3.5625 (0xc0640000), -2.41796875 (0xc01ac000), inf (0x7f800000), -14.6914062 (0xc16b1000), ...}, i = 4, s2 = 15184734996735272635, j = 5, s1 = 8, cko = unsigned long long[64]{2, 52, 1, 18, ...})
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: void const_array_inexact_init_kernel
// culift-param: s0 i16 value -1
// culift-param: o0 i64 output -1
// culift-param: a0 f32 input -1
// culift-param: i i32 value 0
// culift-param: s2 u64 value -1
// culift-param: j i32 value 1
// culift-param: s1 u16 value -1
// culift-param: cko u64 output -1
// culift-args: 2300 27c5e7968181ffd25e758e4aaff74593d7fffffffffffffff3ffffffffffffffe8ffffffffffffffe3ffffffffffffff13000000000000001d3eb58864227d123300000000000000f8ffffffffffffff110000000000000001000000000000001873f9ba7aef24b40000000000000000eeffffffffffffffffffffffffffffffecffffffffffffffffffffffffffff7f0100000000000080feffffffffffff7fad163eb972e2706cffffffffffffffff800774fa2ef621ef1f00000000000000f1ffffffffffffff57c727a3df697a4c01000000000000003700000000000000f6ffffffffffffffdfffffffffffffffe0fffffffffffffff2cdf357af682323c4ffffffffffffffc4ffffffffffffff2c0000000000000015000000000000002a00000000000000ffffffffffffff7f000000000000008002000000000000000100000000000080feffffffffffff7fffffffffffffffff2a0000000000000001000000000000802400000000000000e4ffffffffffffff26000000000000000000000000000080d5a2370645be4511feffffffffffff7f0000000000000080e5ffffffffffffffdfffffffffffffffffffffffffffffffc6ffffffffffffff0000000000000080feffffffffffff7fcffffffffffffffffeffffffffffff7f023a4e82951b965e0000000000000080da2df61eca82a75deaffffffffffffff 000064c000c01ac00000807f00106bc1010000cf8e6c4a4400204dc100a03b410000c07ffd940cc400000000ec78ad60010000cfffff7f7f000086c000706ac1010000cf00000000000080ff00507041ec78ad600100008000c090400040534074f9ce0b8686e7820000000000a0a7400000004f0000c0ff007073c18270b96c010000cf0020b3c0ffff7fff004017c0000000406f12833a00400a4000404fc000c0624000f04cc100704a41000080bf005039c16f12833a00b04f410500c07faf5396e646098ddd1f27865c00f005c1ffff7fff004000c00000000000c00b400020ccc00000c07f0500c07f65f0fbbbec78ad60010000cf0040874000402c40 04000000 bb26d9000704bbd2 05000000 0800 0200000000000000340000000000000001000000000000001200000000000000fdfffffffffffffffeffffffffffffff0323a83c02fa7072ffffffffffffffff2b00000000000000cfffffffffffffff2a000000000000006143388188ccfe9cffffffffffffffffffffffffffffffff01000000000000001a00000000000000f0ffffffffffffffadfe220bdcbe14a62f00000000000000e0ffffffffffffff06000000000000000e3baa41cf3b3817131ea3b4351c8088f9ffffffffffffff2a415851f56b198eeefffffffffffffffeffffffffffffff01000000000000002b0000000000000019000000000000000000000000000000f9ffffffffffffff6aa12feb666b3e705864f39831e1716e0100000000000000010000000000000022aacae9d8cbbb0145e88de79d894d8f02000000000000001b000000000000000c00000000000000ecffffffffffffff2d27c0824dc7c47201000000000000000000000000000000ffffffffffffffffffffffffffffffffcdffffffffffffff0000000000000000d2ffffffffffffff2765017d31f5f0dbc5fffffffffffffff6ffffffffffffff0100000000000000fdffffffffffffffdbffffffffffffff1200000000000000d9ffffffffffffff0000000000000000ffffffffffffffffc8ffffffffffffff020000000000000094e6cb271abbf7970100000000000000
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

CULIFT_KERNEL void const_array_inexact_init_kernel(short s0, long long* o0, const float* a0, int i, unsigned long long s2, int j, unsigned short s1, unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  const float arr1[5] = {((float)1e-40), ((float)true)};
  ck = culift_ck_mixf(ck, arr1[0]);
  ck = culift_ck_mixf(ck, arr1[1]);
  ck = culift_ck_mixf(ck, arr1[2]);
  ck = culift_ck_mixf(ck, arr1[3]);
  ck = culift_ck_mixf(ck, arr1[4]);
  cko[(((int)((unsigned)((int)((unsigned)i * (unsigned)8)) + (unsigned)j))) & 63] = culift_ck_final(ck);
  return;
}

