// Regression: the sign of a NaN. std::acosh(-6.75) is a NaN whose sign C++ leaves unspecified:
// the host library gives one sign at run time, GCC's constant folder another at -O2 (and CUDA may
// choose a third), so std::signbit of it differed between the native -O0 and -O2 legs. Found by
// the differential tester (100,000-program campaign, seed 20261130) and reduced. The numerical
// contract promises nothing about a NaN's sign and payload; the generator no longer produces
// programs that read them, and the native legs no longer fold math calls, so every CPU leg
// computes this NaN at run time and they agree. The float form checks the folding of <cmath>'s
// float overloads too.
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: f64 nan_sign_acosh_kernel
// culift-param: a0 u16 input -1
// culift-param: i i32 value 0
// culift-param: s1 f32 value -1
// culift-param: s0 f64 value -1
// culift-param: a1 u16 input -1
// culift-args: 0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 00000000 00000000 0000000000000000 0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
// culift-args: 0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 05000000 0000c0bf 0000000000001bc0 0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
#include <culift/annotate.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>

inline std::uint16_t h1(unsigned long long q0, std::uint32_t q1, std::int16_t q2) {
  if (std::signbit(std::acosh((-6.75)))) return ((unsigned short)0);
  return ((unsigned short)28);
}
inline std::uint16_t h2(float q0) {
  if (std::signbit(std::acosh(-6.75f))) return ((unsigned short)0);
  return ((unsigned short)3);
}
CULIFT_KERNEL double nan_sign_acosh_kernel(const std::uint16_t* a0, std::int32_t i, float s1, double s0,
                                           const std::uint16_t* a1) {
  return ((double)h1(21ULL, 1u, ((short)0))) + (double)h2(1.5f);
}
