// std::min and std::max of initializer lists, and std::minmax (of two arguments and of a list,
// by value, held as a pair of references, through structured bindings). Compiled natively by
// interp_min_max_tests.cpp and translated by culift from this same file: the interpreter must
// give the native bits, NaNs and the signs of zeros included (libstdc++'s order of comparisons
// decides which element a NaN lets through).
#pragma once

#include <culift/annotate.hpp>

#include <algorithm>

namespace minmax {

CULIFT_KERNEL float Min3(float a, float b, float c) { return std::min({a, b, c}); }
CULIFT_KERNEL float Max3(float a, float b, float c) { return std::max({a, b, c}); }
CULIFT_KERNEL double Min5(double a, double b, double c, double d, double e) { return std::min({a, b, c, d, e}); }
CULIFT_KERNEL double Max5(double a, double b, double c, double d, double e) { return std::max({a, b, c, d, e}); }
CULIFT_KERNEL int MinInt(int a, int b, int c) { return std::min({a, b, c}); }
CULIFT_KERNEL int MaxInt(int a, int b, int c) { return std::max({a, b, c}); }
CULIFT_KERNEL unsigned MaxUnsigned(unsigned a, unsigned b, unsigned c) { return std::max({a, b, c, 7u}); }
CULIFT_KERNEL long long MinLong(long long a, long long b) { return std::min({a, b, -3ll}); }
// An explicit T: the elements convert to it.
CULIFT_KERNEL double MinConverted(float a, double b) { return std::min<double>({a, b, 0.5f}); }
CULIFT_KERNEL float MinOne(float a) { return std::min({a}); }

// std::minmax of a list: first the first smallest, second the last largest.
CULIFT_KERNEL float Minmax3Lo(float a, float b, float c) {
  auto [lo, hi] = std::minmax({a, b, c});
  return lo;
}
CULIFT_KERNEL float Minmax3Hi(float a, float b, float c) {
  auto [lo, hi] = std::minmax({a, b, c});
  return hi;
}
CULIFT_KERNEL float Minmax4Lo(float a, float b, float c, float d) { return std::minmax({a, b, c, d}).first; }
CULIFT_KERNEL float Minmax4Hi(float a, float b, float c, float d) { return std::minmax({a, b, c, d}).second; }
CULIFT_KERNEL double Minmax5Lo(double a, double b, double c, double d, double e) {
  const auto p = std::minmax({a, b, c, d, e});
  return p.first;
}
CULIFT_KERNEL double Minmax5Hi(double a, double b, double c, double d, double e) {
  const auto p = std::minmax({a, b, c, d, e});
  return p.second;
}
CULIFT_KERNEL short MinmaxShortHi(short a, short b, short c) {
  auto [lo, hi] = std::minmax({a, b, c});
  return hi;
}
CULIFT_KERNEL int MinmaxIntSpread(int a, int b, int c) {
  auto [lo, hi] = std::minmax({a, b, c});
  return static_cast<int>(static_cast<unsigned>(hi) - static_cast<unsigned>(lo));
}

// std::minmax(a, b): references to a and b, (b < a) ? (b, a) : (a, b).
CULIFT_KERNEL float MinmaxFirst(float a, float b) { return std::minmax(a, b).first; }
CULIFT_KERNEL float MinmaxSecond(float a, float b) { return std::minmax(a, b).second; }
CULIFT_KERNEL float MinmaxHeldFirst(float a, float b) {
  auto p = std::minmax(a, b);
  return p.first;
}
CULIFT_KERNEL float MinmaxHeldSecond(float a, float b) {
  auto p = std::minmax(a, b);
  return p.second;
}
// The pair refers to a and b: which one is first is decided at the call, its value read later.
CULIFT_KERNEL float MinmaxReferencesFirst(float a, float b, float c) {
  auto [lo, hi] = std::minmax(a, b);
  a = c;
  return lo;
}
CULIFT_KERNEL float MinmaxReferencesSecond(float a, float b, float c) {
  const auto p = std::minmax(a, b);
  b = c;
  return p.second;
}
CULIFT_KERNEL float MinmaxElements(const float* x, int i, float c) {
  int k = i;
  float y[2] = {x[i], c};
  auto p = std::minmax(y[k], y[1 - k]);
  y[k] = -c;
  k = 1 - k;
  return p.first;
}
// Held as values (std::pair<T, T>): a copy made at the declaration.
CULIFT_KERNEL double MinmaxCopied(float a, float b, float c) {
  std::pair<double, double> p = std::minmax(a, b);
  a = c;
  return p.first;
}

// Every element evaluated once, in order, side effects included.
CULIFT_KERNEL int MinSideEffects(int a, int b) {
  int n = a;
  const int m = std::min({n++, n * 2, b, n += 3});
  return m * 1000 + n;
}
CULIFT_KERNEL float MinmaxSideEffects(float a, float b) {
  float x = a;
  auto [lo, hi] = std::minmax({x++, x, b, x *= -2.0f, x});
  return lo + 1000.0f * hi + 1e6f * x;
}
CULIFT_KERNEL float MaxInCondition(float a, float b, float c) {
  float s = 0.0f;
  int n = 0;
  while (n < 3 && std::max({a, b + n, c - static_cast<float>(n++)}) > s) s += 1.0f;
  return s + 100.0f * n;
}

// A struct result.
struct Range {
  float lo, hi;
};
inline Range bounds(float a, float b, float c) { return {std::min({a, b, c}), std::max({a, b, c})}; }
CULIFT_KERNEL float BoundsLo(float a, float b, float c) { return bounds(a, b, c).lo; }
CULIFT_KERNEL float BoundsHi(float a, float b, float c) { return bounds(a, b, c).hi; }

}  // namespace minmax
