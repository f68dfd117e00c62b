// std::array and multi-dimensional arrays: locals, elements, size/front/back/fill, range for,
// copies and assignment, parameters by value (the callee's copy), by reference and as rows of
// constant extents (const float A[][N]), returned arrays, structured bindings and constant
// tables. Compiled natively by interp_array_features_tests.cpp and translated by culift from
// this same file: the interpreter must give the native bits.
#pragma once

#include <culift/annotate.hpp>

#include <array>
#include <cstddef>

namespace arrays {

constexpr std::array<float, 4> kTaps = {0.125f, 0.375f, 0.375f, 0.125f};
constexpr double kGrid[2][3] = {{1.0, -0.5, 0.25}, {2.0}};

inline float total(const std::array<float, 4>& v) {
  float s = 0.0f;
  for (float x : v) s += x;
  return s;
}
// By value: the callee changes its own copy only.
inline float changedCopy(std::array<float, 4> v, float d) {
  for (float& x : v) x = x * d - 1.0f;
  return v[0] + v[3];
}
inline void addTo(std::array<float, 4>& v, float d) {
  for (std::size_t k = 0; k < v.size(); ++k) v[k] += d;
}
inline std::array<float, 4> ramp(float x) { return {x, x + 1.0f, x * x}; }
inline std::array<float, 4> doubled(const std::array<float, 4>& v) {
  std::array<float, 4> r = v;
  for (float& x : r) x *= 2.0f;
  return r;
}

CULIFT_KERNEL float StdArrays(float a, float b) {
  std::array<float, 4> v = {a, b, a * b};
  std::array<float, 4> w = v;
  w[3] = v.front() - v.back();
  const float beforeCall = changedCopy(w, b);
  addTo(v, 0.5f);
  std::array<int, 3> n{};
  n.fill(static_cast<int>(b) % 7);
  std::array<float, 4> r = ramp(b);
  r = doubled(r);
  w = v;
  auto [p, q, s, t] = w;
  auto& [rp, rq, rs, rt] = r;
  rq = -rq;  // through the binding into r
  float acc = beforeCall + total(v) + total(w) + static_cast<float>(n[1] + n.size());
  for (std::size_t k = 0; k < kTaps.size(); ++k) acc += kTaps[k] * r[k];
  return acc + p - q + s * t + rp + r[1] + rs + rt;
}

// b = f(b): the callee reads b while its result is stored, through a temporary.
inline std::array<double, 3> rotated(const std::array<double, 3>& v) { return {v[1], v[2], v[0]}; }
CULIFT_KERNEL double AssignedFromCall(double a, double b) {
  std::array<double, 3> v = {a, b, a - b};
  v = rotated(v);
  v = rotated(v);
  return v[0] * 4.0 + v[1] * 2.0 + v[2];
}

// A brace list assigned (it reads the array it replaces), bindings of a C array by copy and by
// reference, a const copy.
CULIFT_KERNEL float Assignments(float a, float b) {
  float c[2] = {a, b};
  auto [x, y] = c;
  auto& [rx, ry] = c;
  rx = a * b;
  std::array<float, 3> v = {a, b, 1.0f};
  v = {v[1], v[0] - v[1]};
  const std::array<float, 3> w = v;
  return x - y + c[0] * ry + v[0] + v[1] * 3.0f + v[2] + w[1];
}

CULIFT_KERNEL float Matrices(float a, int i) {
  float m[3][4] = {{a, 1.0f, 2.0f}, {3.0f, a * a}, {}};
  int cube[2][3][2] = {{{1, 2}, {3, 4}, {5, 6}}, {{7}}};
  std::array<std::array<float, 3>, 2> g = {{{a, 2.0f, 3.0f}, {4.0f, 5.0f, a}}};
  const int r = (i % 3 + 3) % 3;
  m[2][3] = a - 1.0f;
  m[r][1] += g[1][r];
  float s = 0.0f;
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 4; ++y) s += m[x][y] * static_cast<float>(x + y + 1);
  static constexpr float kScale[2][2] = {{0.5f, 0.25f}, {2.0f, 4.0f}};
  return s + static_cast<float>(cube[1][r][0] + cube[0][r][1]) + g[0][0] * kScale[r % 2][1] +
         static_cast<float>(kGrid[1][r]);
}

// Range for over the rows (and the rows of rows) of multi-dimensional arrays, by reference.
CULIFT_KERNEL float Rows(float a, float b) {
  float m[3][2] = {{a, b}, {b, a}, {a * b, 1.0f}};
  std::array<std::array<double, 2>, 2> g = {{{a, 0.5}, {b, -0.25}}};
  int cube[2][2][3] = {{{1, 2, 3}, {4, 5, 6}}, {{7, 8, 9}, {10, 11, 12}}};
  float s = 0.0f;
  for (auto& row : m)
    for (float& v : row) v = v * 0.5f + 1.0f;
  for (const auto& row : m) s += row[0] - row[1];
  for (const auto& row : g)
    for (double v : row) s += static_cast<float>(v * 3.0);
  for (const auto& plane : cube)
    for (const auto& row : plane) s += static_cast<float>(row[2] * row[0]);
  return s + m[2][1];
}

// References to whole arrays: parameters (rows of a 2-D one too) and locals.
inline float ends(const float (&a)[3]) { return a[0] - a[2]; }
inline void scaled(float (&a)[2][2], float f) {
  for (auto& row : a)
    for (float& v : row) v *= f;
}
CULIFT_KERNEL float ArrayReferences(float x, float y) {
  float c[3] = {x, y, 3.0f};
  float (&r)[3] = c;
  r[1] = x - y;
  std::array<float, 2> s = {x, y};
  const std::array<float, 2>& t = s;
  s[0] = y;
  float m[2][2] = {{1.0f, y}, {3.0f, x}};
  scaled(m, y);
  return ends(c) + c[1] + t[0] * t[1] + m[0][1] - m[1][1] + static_cast<float>(t.size());
}

// The PolyBench form: rows of constant extent, one flat row-major array for culift.
#define ARRAYS_N 8
inline float rowDot(const float A[][ARRAYS_N], const float (*B)[ARRAYS_N], int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < ARRAYS_N; ++k) acc += A[i][k] * B[k][j];
  return acc;
}
CULIFT_KERNEL void Gemm(float alpha, const float A[][ARRAYS_N], const float (*B)[ARRAYS_N], float C[][ARRAYS_N],
                        int i, int j) {
  C[i][j] = alpha * rowDot(A, B, i, j) + C[i][j];
}

// Lambdas capturing arrays by reference, a template over the extent, a static member table.
struct Filter {
  static constexpr float kTaps[3] = {0.5f, 0.25f, 0.25f};
};
template <std::size_t N> float sumOf(const std::array<float, N>& v) {
  float s = 0.0f;
  for (float x : v) s += x;
  return s;
}
CULIFT_KERNEL float Captures(float a, float b) {
  std::array<float, 3> v = {a, b, a + b};
  float m[2][2] = {{a, b}, {b, -a}};
  auto dot = [&](int r) { return m[r][0] * v[0] + m[r][1] * v[1]; };
  auto bump = [&v](float d) {
    for (float& x : v) x += d;
  };
  bump(0.5f);
  std::array<float, 5> w{};
  w[4] = b;
  return dot(0) + dot(1) + v[2] + Filter::kTaps[1] * a + sumOf(v) + sumOf(w);
}

// Lambdas capturing arrays by copy: a copy made where the lambda is defined (later changes of
// the array are not seen), which a mutable lambda changes from call to call.
CULIFT_KERNEL float CopiedCaptures(float a, float b) {
  float w[3] = {a, b, a * b};
  std::array<float, 4> v = {b, a, 1.5f, -a};
  float m[2][2] = {{a, 2.0f}, {b, -1.0f}};
  auto first = [w]() { return w[0] + w[2]; };
  auto count = [v, m](int k) mutable {
    v[k] += m[k % 2][k / 2];
    return v[k];
  };
  w[0] = 100.0f;
  v[1] = -7.0f;
  const float c1 = count(1);
  const float c2 = count(1);
  return first() + c1 + c2 + w[0] + v[1] + count(3);
}

}  // namespace arrays
