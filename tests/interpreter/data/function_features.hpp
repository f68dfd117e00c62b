// Functions as C++ writes them: templates instantiated by use, static member functions and
// constants of classes (class templates with non-type parameters too), constexpr functions and
// if constexpr, references (outputs, aliases of array elements), range for over local arrays,
// and lambdas. Compiled natively by interp_function_features_tests.cpp and translated by culift
// from this same file: the interpreter must give the native bits.
#pragma once

#include <culift/annotate.hpp>

#include <cmath>
#include <type_traits>

namespace features {

// ---- templates ----------------------------------------------------------------------------

template <class T> T lerp(T a, T b, T t) { return a + (b - a) * t; }

// |a - b|, spelled per kind of type: only the branch if constexpr selects is code.
template <class T> T distance(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return a < b ? b - a : a - b;
  } else {
    return std::fabs(a - b);
  }
}

// Horner's rule with the degree as a template parameter: a loop, and the same by recursion over
// instances (PolyRec<3> calls PolyRec<2> ... PolyRec<0>, each a function of its own).
template <int N> struct Horner {
  static constexpr int kTerms = N + 1;
  static float eval(const float* c, float x) {
    float r = c[N];
    for (int k = N - 1; k >= 0; --k) r = r * x + c[k];
    return r;
  }
};

template <int N> struct PolyRec {
  static float eval(const float* c, int at, float x) {
    if constexpr (N == 0) return c[at];
    else return c[at] + x * PolyRec<N - 1>::eval(c, at + 1, x);
  }
};

struct Units {
  static constexpr float kScale = 2.5f;
  static constexpr int kShift = -3;
  static float scaled(float v) { return v * kScale + static_cast<float>(kShift); }
};

constexpr int cube(int v) { return v * v * v; }
constexpr float half(float v) { return v * 0.5f; }

CULIFT_KERNEL float TemplateCalls(float a, float b, double t, int n) {
  const float mixed = lerp(a, b, 0.25f) + static_cast<float>(lerp<double>(a, b, t));
  const int d = distance(n, 7) + distance<int>(-n, 2);
  return mixed + distance(a, b) + static_cast<float>(d) + Units::scaled(a) + static_cast<float>(cube(n)) +
         static_cast<float>(cube(3)) + half(3.0f) + static_cast<float>(Horner<2>::kTerms);
}

CULIFT_KERNEL float Polynomial(const float* c, float x, int i) {
  return Horner<4>::eval(c, x + static_cast<float>(i)) + PolyRec<3>::eval(c, 1, x) - Units::kScale;
}

// An annotated template: each explicit instantiation below is a kernel.
template <class T> CULIFT_KERNEL T Clip(T v, T lo, T hi) { return v < lo ? lo : (hi < v ? hi : v); }
template float Clip<float>(float, float, float);
template int Clip<int>(int, int, int);

// ---- references ---------------------------------------------------------------------------

inline void sincosPair(float a, float& s, float& c) {
  s = std::sin(a);
  c = std::cos(a);
}
inline void accumulate(float& acc, const float& v) { acc += v; }
inline void swapValues(float& a, float& b) {
  const float t = a;
  a = b;
  b = t;
}
// Passes its reference parameter on: the caller's variable is the one changed.
inline void addTwice(float& r, const float& v) {
  accumulate(r, v);
  accumulate(r, v);
}
// A const reference to an element sees a later write to that element, as in C++.
inline float readAfterWrite(float* a, int i) {
  const float& r = a[i];
  a[i] = a[i] * 2.0f + 1.0f;
  return r;
}

CULIFT_KERNEL float References(float a, float b) {
  float s, c;
  sincosPair(a, s, c);
  float buf[3] = {a, b, s};
  swapValues(buf[0], buf[2]);
  float acc = 0.0f;
  accumulate(acc, buf[0]);
  accumulate(acc, a * b);  // a temporary
  addTwice(acc, acc);      // v aliases r: the second add sees the first
  const float& alias = buf[1];
  buf[1] = c * 3.0f;
  float& w = acc;
  w += alias;
  const double& widened = a;  // bound to a converted temporary
  return acc + buf[2] + static_cast<float>(widened);
}

CULIFT_KERNEL void ReferencesInArrays(float* a, int i) { a[i] = readAfterWrite(a, i) + 0.25f; }

// ---- range for ----------------------------------------------------------------------------

CULIFT_KERNEL float RangeFor(float a, float b) {
  float buf[4] = {a, b, a * b, a - b};
  for (float& v : buf) v = v * 0.5f + 1.0f;
  float s = 0.0f;
  for (float v : buf) s += v;
  double d = 0.0;
  for (double v : buf) d += v * v;
  int n = 0;
  for (const float& v : buf) {
    if (v > 1.0f) continue;
    ++n;
  }
  return s + static_cast<float>(d) + static_cast<float>(n);
}

// ---- lambdas ------------------------------------------------------------------------------

template <class F> float apply(F f, float x) { return f(x) + f(x + 1.0f); }
template <class F> float applyRef(F& f, float x) { return f(x); }

CULIFT_KERNEL float Lambdas(float a, float b) {
  float k = a;
  auto byCopy = [=](float x) { return x * k + b; };
  auto byRef = [&](float x) {
    k += x;
    return k;
  };
  auto explicitList = [k, &b](float x) {
    b = b + x;
    return k - b;
  };
  auto init = [s = a * 2.0f, t = b](float x) { return s * x + t; };
  int calls = 0;
  auto counter = [calls]() mutable { return ++calls; };
  float buf[3] = {a, b, 1.0f};
  auto sumBuf = [&buf]() {
    float s = 0.0f;
    for (int q = 0; q < 3; ++q) s += buf[q];
    return s;
  };
  float r = byCopy(1.5f);
  k = 10.0f;
  r += byCopy(2.0f);  // the copy of k made at the definition
  r += byRef(1.0f);   // k itself: 11
  r += explicitList(0.5f);
  r += init(3.0f);
  const int first = counter();
  const int second = counter();
  r += static_cast<float>(first * 10 + second + calls);
  r += apply(byCopy, b);
  r += apply([&](float x) { return x * k; }, 2.0f);
  r += applyRef(byRef, 0.25f);
  buf[2] = k;
  r += sumBuf();
  auto scaleBuf = [&buf](float f) {  // range for over the captured array, by reference and by copy
    for (float& v : buf) v *= f;
    float s = 0.0f;
    for (float v : buf) s += v;
    return s;
  };
  r += scaleBuf(0.5f) + buf[0];
  return r + k + b;
}

}  // namespace features
