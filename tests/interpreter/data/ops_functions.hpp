// Functions compiled natively by the test AND translated by culift: every operator on every
// type (C++ promotions and conversions included), every conversion, math calls and control
// constructs. The test compares the two bit for bit on boundary values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <culift/annotate.hpp>

#define CULIFT_ARITH_OPS(T, N)                                                  \
  CULIFT_KERNEL inline T add_##N(T a, T b) { return a + b; }                    \
  CULIFT_KERNEL inline T sub_##N(T a, T b) { return a - b; }                    \
  CULIFT_KERNEL inline T mul_##N(T a, T b) { return a * b; }                    \
  CULIFT_KERNEL inline T div_##N(T a, T b) { return a / b; }                    \
  CULIFT_KERNEL inline bool lt_##N(T a, T b) { return a < b; }                  \
  CULIFT_KERNEL inline bool le_##N(T a, T b) { return a <= b; }                 \
  CULIFT_KERNEL inline bool eq_##N(T a, T b) { return a == b; }                 \
  CULIFT_KERNEL inline bool ne_##N(T a, T b) { return a != b; }                 \
  CULIFT_KERNEL inline T neg_##N(T a) { return -a; }                            \
  CULIFT_KERNEL inline T addeq_##N(T a, T b) { a += b; return a; }              \
  CULIFT_KERNEL inline T muleq_##N(T a, T b) { a *= b; return a; }              \
  CULIFT_KERNEL inline T inc_##N(T a) { return ++a; }                           \
  CULIFT_KERNEL inline T dec_##N(T a) { a--; return a; }                        \
  CULIFT_KERNEL inline T pick_##N(T a, T b) { return a < b ? b : a; }

#define CULIFT_INT_OPS(T, N)                                                    \
  CULIFT_KERNEL inline T rem_##N(T a, T b) { return a % b; }                    \
  CULIFT_KERNEL inline T and_##N(T a, T b) { return a & b; }                    \
  CULIFT_KERNEL inline T or_##N(T a, T b) { return a | b; }                     \
  CULIFT_KERNEL inline T xor_##N(T a, T b) { return a ^ b; }                    \
  CULIFT_KERNEL inline T not_##N(T a) { return ~a; }                            \
  CULIFT_KERNEL inline T shl_##N(T a, int n) { return a << n; }                 \
  CULIFT_KERNEL inline T shr_##N(T a, int n) { return a >> n; }                 \
  CULIFT_KERNEL inline T shreq_##N(T a, long long n) { a >>= n; return a; }

#define CULIFT_ALL_TYPES(X)             \
  X(signed char, sc)                    \
  X(unsigned char, uc)                  \
  X(short, s)                           \
  X(unsigned short, us)                 \
  X(int, i)                             \
  X(unsigned, u)                        \
  X(long long, ll)                      \
  X(unsigned long long, ull)            \
  X(float, f)                           \
  X(double, d)

#define CULIFT_INT_TYPES(X)             \
  X(signed char, sc)                    \
  X(unsigned char, uc)                  \
  X(short, s)                           \
  X(unsigned short, us)                 \
  X(int, i)                             \
  X(unsigned, u)                        \
  X(long long, ll)                      \
  X(unsigned long long, ull)

CULIFT_ALL_TYPES(CULIFT_ARITH_OPS)
CULIFT_INT_TYPES(CULIFT_INT_OPS)

// Conversions From -> To (implicit, as in a return statement).
#define CULIFT_CONV_TO(F, FN, T, TN) \
  CULIFT_KERNEL inline T conv_##FN##_##TN(F v) { return v; }
#define CULIFT_CONV_FROM(F, FN)           \
  CULIFT_CONV_TO(F, FN, bool, b)          \
  CULIFT_CONV_TO(F, FN, signed char, sc)  \
  CULIFT_CONV_TO(F, FN, unsigned char, uc) \
  CULIFT_CONV_TO(F, FN, short, s)         \
  CULIFT_CONV_TO(F, FN, unsigned short, us) \
  CULIFT_CONV_TO(F, FN, int, i)           \
  CULIFT_CONV_TO(F, FN, unsigned, u)      \
  CULIFT_CONV_TO(F, FN, long long, ll)    \
  CULIFT_CONV_TO(F, FN, unsigned long long, ull) \
  CULIFT_CONV_TO(F, FN, float, f)         \
  CULIFT_CONV_TO(F, FN, double, d)
CULIFT_ALL_TYPES(CULIFT_CONV_FROM)
CULIFT_CONV_FROM(bool, b)

// Mixed-type arithmetic: usual arithmetic conversions.
CULIFT_KERNEL inline double mixed_fd(float a, double b) { return a * b; }
CULIFT_KERNEL inline long long mixed_ill(int a, long long b) { return a - b; }
CULIFT_KERNEL inline unsigned mixed_iu(int a, unsigned b) { return a + b; }
CULIFT_KERNEL inline float mixed_if(int a, float b) { return a / b; }
CULIFT_KERNEL inline int mixed_shorteq(short a, int b) { a += b; return a; }
CULIFT_KERNEL inline int scaled(int a, double f) { a *= f; return a; }

// Math calls: the float overloads for float, the double ones for double.
CULIFT_KERNEL inline float m_sqrtf(float x) { return std::sqrt(x); }
CULIFT_KERNEL inline float m_sqrtf_c(float x) { return sqrtf(x); }
CULIFT_KERNEL inline double m_sqrt(double x) { return std::sqrt(x); }
CULIFT_KERNEL inline float m_powf(float x, float y) { return std::pow(x, y); }
CULIFT_KERNEL inline double m_pow(double x, double y) { return std::pow(x, y); }
CULIFT_KERNEL inline float m_expf(float x) { return std::exp(x); }
CULIFT_KERNEL inline double m_log(double x) { return std::log(x); }
CULIFT_KERNEL inline float m_fminf(float x, float y) { return std::fmin(x, y); }
CULIFT_KERNEL inline float m_minf(float x, float y) { return std::min(x, y); }
CULIFT_KERNEL inline double m_maxd(double x, double y) { return std::max(x, y); }
CULIFT_KERNEL inline float m_clampf(float x, float y) { return std::clamp(x, -y, y); }
CULIFT_KERNEL inline int m_absi(int x, int y) { return std::abs(x) + std::min(x, y); }
CULIFT_KERNEL inline double m_sinint(int x, int y) { return std::sin(x) + std::atan2(y, 2.0); }

// Control constructs.
CULIFT_KERNEL inline int c_switch(int v, int w) {
  int r = 0;
  switch (v) {
    case 1:
      r += 1;
    case 2:
      r += 10;
      break;
    default:
      r = -1;
    case -3:
      r += 100;
  }
  return r + w;
}
CULIFT_KERNEL inline int c_loops(int n, int m) {
  int s = 0;
  for (int k = 0; k < n; ++k) {
    if (k % 2 == 0) continue;
    if (k > m) break;
    s += k;
  }
  int d = 0;
  do {
    ++d;
  } while (d < 0);
  while (s > 1000) s -= 7;
  return s * 10 + d;
}
CULIFT_KERNEL inline int c_logic(int a, int b) { return (a > 0 && b / a > 2) || (a == 0 && b != 0) ? 1 : 0; }
CULIFT_KERNEL inline double c_local_array(int i, double x) {
  double a[5] = {1.5, x};
  a[4] += a[i % 5 < 0 ? -(i % 5) : i % 5];
  return a[4] + a[3] * x;
}
CULIFT_KERNEL inline unsigned long long c_wrap(unsigned long long a, unsigned b) {
  unsigned long long h = a;
  for (unsigned k = 0; k < b; ++k) h = h * 6364136223846793005ull + 1442695040888963407ull;
  return h ^ (h >> 29);
}
inline float helper_scale(float* y, int n, float f) {
  float t = 0;
  for (int k = 0; k < n; k++) {
    y[k] *= f;
    t += y[k];
  }
  return t;
}
CULIFT_KERNEL inline void c_call(float* y, int n, float f) {
  float t = helper_scale(y, n, f);
  y[0] = t;
}
