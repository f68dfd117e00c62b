// Constants C++ spells as calls or macros (INFINITY, NAN, HUGE_VAL(F), std::numeric_limits<T>
// members for every supported T), asserts and uniform parameters: compiled natively by the
// interpreter tests AND translated by culift from this same file.
#pragma once

#include <culift/annotate.hpp>

#include <cassert>
#include <cmath>
#include <limits>

// X(T, N): every supported type T, named N in function names.
#define CULIFT_LIMIT_TYPES(X)                                                                                  \
  X(bool, bool) X(char, char) X(signed char, schar) X(unsigned char, uchar) X(short, short)                \
  X(unsigned short, ushort) X(int, int) X(unsigned, uint) X(long, long) X(unsigned long, ulong)            \
  X(long long, llong) X(unsigned long long, ullong) X(float, float) X(double, double)

// The members that are functions, returning T; and those that are values (int, bool, an enum).
#define CULIFT_LIMIT_FUNCTIONS(X, T, N)                                                                        \
  X(T, N, min) X(T, N, max) X(T, N, lowest) X(T, N, epsilon) X(T, N, round_error) X(T, N, infinity)         \
  X(T, N, quiet_NaN) X(T, N, denorm_min)
#define CULIFT_LIMIT_VALUES(X, T, N)                                                                           \
  X(T, N, digits) X(T, N, digits10) X(T, N, max_digits10) X(T, N, is_signed) X(T, N, is_integer)           \
  X(T, N, is_exact) X(T, N, radix) X(T, N, min_exponent) X(T, N, min_exponent10) X(T, N, max_exponent)     \
  X(T, N, max_exponent10) X(T, N, has_infinity) X(T, N, has_quiet_NaN) X(T, N, is_iec559)                  \
  X(T, N, is_bounded) X(T, N, is_modulo) X(T, N, traps) X(T, N, tinyness_before) X(T, N, round_style)

#define CULIFT_LIMIT_FUNCTION(T, N, M) \
  CULIFT_KERNEL T lim_##N##_##M() { return std::numeric_limits<T>::M(); }
#define CULIFT_LIMIT_VALUE(T, N, M) \
  CULIFT_KERNEL long long lim_##N##_##M() { return std::numeric_limits<T>::M; }
#define CULIFT_LIMIT_ALL(T, N) \
  CULIFT_LIMIT_FUNCTIONS(CULIFT_LIMIT_FUNCTION, T, N) CULIFT_LIMIT_VALUES(CULIFT_LIMIT_VALUE, T, N)
CULIFT_LIMIT_TYPES(CULIFT_LIMIT_ALL)

// <cmath>'s macros, and constants in computations.
CULIFT_KERNEL float c_infinity() { return INFINITY; }
CULIFT_KERNEL float c_minus_infinity() { return -INFINITY; }
CULIFT_KERNEL float c_nan() { return NAN; }
CULIFT_KERNEL double c_nan_as_double() { return NAN; }
CULIFT_KERNEL double c_nan_payload() { return __builtin_nan("0x5"); }
CULIFT_KERNEL float c_huge_valf() { return HUGE_VALF; }
CULIFT_KERNEL double c_huge_val() { return HUGE_VAL; }
CULIFT_KERNEL float c_max_of(float a, float b) {
  float best = -INFINITY;
  if (a > best) best = a;
  if (b > best) best = b;
  return best;
}
CULIFT_KERNEL double c_limits_mix(double x) {
  if (std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
  if (x > std::numeric_limits<float>::max()) return HUGE_VAL;
  return x * std::numeric_limits<double>::epsilon() + std::numeric_limits<float>::denorm_min();
}

// assert: checked by the interpreter (compiled out natively in release builds, as NDEBUG does).
CULIFT_KERNEL float c_checked_sqrt(float x) {
  assert(x >= 0.0f && "the input must not be negative");
  return std::sqrt(x);
}

// Uniform parameters of element-wise kernels.
CULIFT_UNIFORM(negativeSlope) float u_leaky_relu(float x, float negativeSlope) {
  return x > 0.0f ? x : x * negativeSlope;
}
CULIFT_KERNEL CULIFT_UNIFORM(a, b) float u_axpby(float a, float x, float b, float y) { return a * x + b * y; }
