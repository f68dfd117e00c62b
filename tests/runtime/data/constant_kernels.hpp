// Kernels with the constants C++ spells as calls and macros (INFINITY, NAN, HUGE_VAL(F),
// std::numeric_limits<T>), uniform parameters and asserts: compiled natively by the runtime tests
// and translated by culift, then launched on the CPU backend and the GPU.
#pragma once

#include <cassert>
#include <cmath>
#include <limits>

#include <culift/annotate.hpp>

// Element-wise over `which`: one constant per element.
CULIFT_KERNEL inline float FloatConstant(int which) {
  using L = std::numeric_limits<float>;
  switch (which) {
    case 0: return INFINITY;
    case 1: return -INFINITY;
    case 2: return NAN;
    case 3: return HUGE_VALF;
    case 4: return L::lowest();
    case 5: return L::max();
    case 6: return L::min();
    case 7: return L::denorm_min();
    case 8: return L::epsilon();
    case 9: return L::round_error();
    case 10: return L::quiet_NaN();
    case 11: return -L::infinity();
    default: return (float)(L::digits + L::max_exponent + L::min_exponent10);
  }
}
inline constexpr int kFloatConstants = 13;

CULIFT_KERNEL inline double DoubleConstant(int which) {
  using L = std::numeric_limits<double>;
  switch (which) {
    case 0: return HUGE_VAL;
    case 1: return -HUGE_VAL;
    case 2: return L::quiet_NaN();
    case 3: return L::lowest();
    case 4: return L::max();
    case 5: return L::min();
    case 6: return L::denorm_min();
    case 7: return L::epsilon();
    case 8: return INFINITY;  // a float infinity converted to double
    case 9: return std::numeric_limits<float>::max();
    case 10: return std::numeric_limits<float>::denorm_min();
    default: return (double)(L::digits + L::max_exponent10 + L::min_exponent);
  }
}
inline constexpr int kDoubleConstants = 12;

CULIFT_KERNEL inline long long IntegerConstant(int which) {
  switch (which) {
    case 0: return std::numeric_limits<int>::max();
    case 1: return std::numeric_limits<int>::min();
    case 2: return std::numeric_limits<long long>::lowest();
    case 3: return std::numeric_limits<long long>::max();
    case 4: return (long long)(std::numeric_limits<unsigned long long>::max() >> 3);
    case 5: return std::numeric_limits<unsigned>::max();
    case 6: return std::numeric_limits<short>::min() + std::numeric_limits<unsigned short>::max();
    case 7: return std::numeric_limits<signed char>::min() * 1000 + std::numeric_limits<unsigned char>::max();
    case 8: return std::numeric_limits<char>::max() + std::numeric_limits<bool>::max();
    case 9: return std::numeric_limits<unsigned long>::digits + std::numeric_limits<int>::digits10;
    default: return std::numeric_limits<double>::is_iec559 + 2 * std::numeric_limits<int>::is_signed;
  }
}
inline constexpr int kIntegerConstants = 11;

// Uniform parameters: `negativeSlope`, `a` and `b` are passed once; x and y per element.
CULIFT_UNIFORM(negativeSlope) inline float LeakyRelu(float x, float negativeSlope) {
  return x > 0.0f ? x : x * negativeSlope;
}
CULIFT_KERNEL CULIFT_UNIFORM(a, b) inline double Axpby(double a, double x, double b, double y) {
  return a * x + b * y;
}
// Uniform bounds and a per-element value of another type; constants in the body.
CULIFT_UNIFORM(lo, hi) inline float ClampOrFlag(float x, float lo, float hi, int flag) {
  if (std::isnan(x)) return flag ? NAN : -INFINITY;
  return x < lo ? lo : (x > hi ? hi : x);
}

// An assert that fails for negative elements.
CULIFT_KERNEL inline float CheckedSqrt(float x) {
  assert(x >= 0.0f && "the input must not be negative");
  return std::sqrt(x);
}
