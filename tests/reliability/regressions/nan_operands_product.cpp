// Regression: two different NaNs multiplied: native -O0 took the second operand's NaN, so NaN bits compare exactly only where no + or * met two different NaNs
// Found by the differential tester (seed 13, program nan_operands_product) and reduced automatically.
// o0[39]: native -O0 nan (0x7fc00000), interpreter -nan (0xffc00000) (s1 = 0, o0 = float[64]{1.17549435e-38 (0x00800000), -7.140625 (0xc0e48000), -9.82421875 (0xc11d3000), 3.76596955e+30 (0x723e2204), ...}, i = 39, s0 = -32768, a1 = double[64]{-4.9406564584124654e-324 (0x8000000000000001), 2.8515625 (0x4006d00000000000), 3.7720143657232767e+246 (0x7321436f95d2dcaf), 2.6953125 (0x4005900000000000), ...}, a0 = long long[64]{0, -1, 36, 15, ...}, o1 = unsigned char[64]{2, 246, 255, 50, ...}, cko = unsigned long long[64]{1, 18446744073709551615, 2, 58, ...})
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: void nan_operands_product_kernel
// culift-param: s1 u64 value -1
// culift-param: o0 f32 output -1
// culift-param: i i32 value 0
// culift-param: s0 i16 value -1
// culift-param: a1 f64 input -1
// culift-param: a0 i64 input -1
// culift-param: o1 u8 output -1
// culift-param: cko u64 output -1
// culift-args: 0000000000000000 000080000080e4c000301dc104223e726f12833a00009fbf000020c05f42a5d1000075c051ebbffd0000efc05cb37c8f007003410000003f28a3f6940000c07f0000003f003060410000004000e05cc196882edbf6bb5be90100008000e0b44000005ac00000aa3e8e7115e1008083bfffff7fff0100008000d005c1006024410000003f00209c400020acc00040e3c0002006c1d50ceddcffff7f7f000007bf0030534100800fc10060fcc0010000cfdf21fbd5000080bf00c00240000080ff00b07cc1000028be0080993f0000c0ff000080ff00e0cd400000000000c01c410000003f009015c100607ac10000483f0000344000406240f8593adb8adbbe06 27000000 0080 01000000000000800000000000d00640afdcd2956f4321730000000000900540000000000000f87f000000000000008000000000002803c00000000000e8294000000000006014c000000000005818c000000000004626400000000000f429c00000000000b2234000000000009626400000000000ce2bc00000000000001000000000000000c73f047ea8c1d625aad506673626a9343ded000000000000f07f010000000000008000000000009c13400000000000a410c0010000000000008000000000005e28c00000000000622940fca9f1d24d62503fb7be42dca0fe51de000000000078214000000000009013c0000000000000f07f941388f07aa8452c0000000000001000000000000080e8bf00000000008c17c000000000008c1ac000000000000000400000000000880a4000000000008e26400000000000d01dc006955ddd73790c3600000000005808c000000000008e27c0de022b8cc9f8ac5300000000000010000000000000d823c000000000005e2740ffffffffffffef7f0000000000041ec0e7de466e2f8ef655000000000080ea3f000000000000f07ffca9f1d24d62503fffffffffffffef7f050000000000f87f000008000000f041000000000000f8ff0f26988da414f1f5ffffffffffffefff00000000009a25c00000000000fa20400000000000001000000000000000f07f0000000000c626c0 0000000000000000ffffffffffffffff24000000000000000f00000000000000000000000000000001000000000000800000000000000080400000000000000049f7c1b1cfa5586101000000000000800e000000000000000000000000000080cbffffffffffffffc9ffffffffffffffc0ffffffffffffffe0ffffffffffffff3900000000000000e6ffffffffffffffcdfffffffffffffffeffffffffffff7ffcfffffffffffffffeffffffffffff7fffffffffffffffffc8ffffffffffffff01000000000000801f00000000000000feffffffffffff7f0100000000000080f98562e8827099ecffffffffffffffff2000000000000000e6ffffffffffffff0100000000000000e3ffffffffffffff01000000000000003000000000000000feffffffffffffffc5ffffffffffffff1a000000000000007afc9760b44b6e9d00000000000000000200000000000000460d3bd49a36376cfeffffffffffff7f01000000000000809751937841189b7d0000000000000080e1ffffffffffffffe1ffffffffffffff1a000000000000000200000000000000c6ffffffffffffff020000000000000001000000000000009a4ed52530c4f0f005000000000000000000000000000000ffffffffffffffffc8ffffffffffffff1100000000000000cbfffffffffffffff7ffffffffffffff0600000000000000c4ffffffffffffff 02f6ff32daff01de00cde0001800f800fe3f00d9f9dd000213011033ffff1905bf43e0d6fbd1fffedeffcdff0026ffc72cf68a02010401011055020107ebfade 0100000000000000ffffffffffffffff02000000000000003a00000000000000364c6e5b4af382230000000000000000ffffffffffffffff0700000000000000d4ffffffffffffffffffffffffffffff23000000000000000200000000000000fffffffffffffffff1ffffffffffffffffffffffffffffff0400000000000000dac933ce3e9d12ddf0ffffffffffffff2f00000000000000ffffffffffffffffeaffffffffffffffffffffffffffffff00000000000000007dd334e2534548d8ceffffffffffffff000000000000000023b6ecf562a0e2434f8a2e2ba0a00db20700000000000000d2ffffffffffffffddffffffffffffffffffffffffffffff01000000000000003300000000000000c43d2ea53642681302000000000000000000000000000000ddffffffffffffffffffffffffffffff0000000000000000020000000000000012000000000000001a0000000000000026000000000000002100000000000000fffffffffffffffffeffffffffffffff1e00000000000000d4ffffffffffffffffffffffffffffffc4ffffffffffffff33000000000000001f000000000000000900000000000000d8ffffffffffffff1c00000000000000fffffffffffffffff7ffffffffffffffd0ffffffffffffff2a00000000000000d1ffffffffffffff23000000000000001500000000000000deffffffffffffff
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

CULIFT_KERNEL void nan_operands_product_kernel(unsigned long long s1, float* o0, int i, short s0, const double* a1, const long long* a0, unsigned char* o1, unsigned long long* cko) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  float acc1 = 0.0f;
  ck = culift_ck_mixf(ck, acc1);
  for (int c2 = 0; c2 < 8; ++c2) {
    acc1 = (acc1 * ((float)a1[(c2) & 63]));
  }
  ck = culift_ck_mixf(ck, acc1);
  {
    const float cks = acc1;
    o0[(i) & 63] = cks;
    ck = culift_ck_mixf(ck, cks);
  }
  cko[(i) & 63] = culift_ck_final(ck);
  return;
}

