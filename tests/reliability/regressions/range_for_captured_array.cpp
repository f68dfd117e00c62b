// Regression: translate: culift rejected a range for over a local array captured by reference in a lambda (the lambda takes the array as a parameter): it now runs over the captured extent
// Found by the differential tester (seed 7, program range_for_captured_array) and reduced automatically.
// p79.cpp:65:22: error: a range-based for loop can only run over a local array
//     for (bool& e30 : arr22) {
//                      ^
// note: write an index loop for anything else: for (int k = 0; k < n; ++k)
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: i64 range_for_captured_array_kernel
// culift-param: s2 u8 value -1
// culift-param: s1 u8 value -1
// culift-param: s0 i8 value -1
// culift-args: 2c 33 81
// culift-args: fe e2 36
// culift-args: 34 ff 7f
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

template <typename R, typename F, typename A> inline R range_for_captured_array_apply(F f, A a) {
  return f(a);
}

CULIFT_KERNEL long long range_for_captured_array_kernel(unsigned char s2, unsigned char s1, signed char s0) {
  unsigned long long ck = 0xcbf29ce484222325ULL;
  bool arr22[4] = {true, true};
  ck = culift_ck_mix(ck, arr22[0]);
  ck = culift_ck_mix(ck, arr22[1]);
  ck = culift_ck_mix(ck, arr22[2]);
  ck = culift_ck_mix(ck, arr22[3]);
  auto f32 = [&](auto la28) -> bool {
    unsigned long long ckl = 0xcbf29ce484222325ULL;
    for (bool& e30 : arr22) {
    }
    {
      const bool ckr = false;
      ckl = culift_ck_mix(ckl, ckr);
      ckl = culift_ck_final(ckl);
      return (ckl & 1ULL) != 0;
    }
  };
  bool v33 = range_for_captured_array_apply<bool>(f32, ((long long)0LL));
  ck = culift_ck_mix(ck, v33);
  {
    const long long ckr = 35LL;
    ck = culift_ck_mix(ck, ckr);
    ck = culift_ck_final(ck);
    return (long long)ck;
  }
}

