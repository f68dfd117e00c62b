// Regression: a math call the compiler can evaluate. std::tgamma(std::clamp(15.0, ...)) has an
// argument GCC sees at compile time: at -O2 it folded the call to the exact 87178291200, while
// glibc computes 87178291199.999985 at run time (-O0, and the interpreter). Found by the
// differential tester (100,000-program campaign, seed 20261130) and reduced. The native legs
// compile with every math call left to the run-time library (-fno-builtin, and <cmath>'s
// overloads routed to the library functions), so all CPU legs agree (nan_sign_acosh.cpp checks
// the float overloads).
// Replayed by reliability_regression_tests: native (-O0, -O2) and the interpreter must agree.
// culift-kernel: f64 fold_tgamma_kernel
// culift-param: s0 f64 value -1
// culift-param: s1 f32 value -1
// culift-args: 0000000000000000 00000000
// culift-args: 000000000000f03f 0000c03f
#include <culift/annotate.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>

inline double h1(double q0) { return std::tgamma(std::clamp(15.0, -2.5, 40.0)) + q0; }
CULIFT_KERNEL double fold_tgamma_kernel(double s0, float s1) { return h1(s0) + (double)s1; }
