// std::array: locals, elements, size/front/back/fill, range for, copies and assignment,
// parameters by value (the callee's copy) and by reference, a returned array, structured
// bindings, and constant tables (a constexpr global, a static constexpr local).
#include <array>
#include <culift/annotate.hpp>

constexpr std::array<float, 3> kWeights = {0.25f, 0.5f, 0.25f};

inline float total(const std::array<float, 3>& v) {
  float s = 0.0f;
  for (float x : v) s += x;
  return s;
}
inline float bumped(std::array<float, 3> v) {  // a copy: the caller's array is unchanged
  v[0] += 1.0f;
  return v[0] * v[1] * v[2];
}
inline void scale(std::array<float, 3>& v, float f) {
  for (float& x : v) x *= f;
}
inline std::array<float, 3> ramp(float x) { return {x, 2.0f * x}; }

CULIFT_KERNEL float StdArray(const float* x, int i) {
  std::array<float, 3> a = {x[i], x[i + 1], x[i + 2]};
  std::array<float, 3> b = a;
  b[1] = a.front() + a.back();
  scale(b, 0.5f);
  std::array<int, 4> counts{};
  counts.fill(i);
  a = b;
  auto r = ramp(a[2]);
  auto [r0, r1, r2] = r;
  static constexpr double kBias[2] = {0.5, -0.5};
  float s = total(a) + bumped(b) + static_cast<float>(a.size()) + static_cast<float>(counts[3]);
  for (std::size_t k = 0; k < kWeights.size(); ++k) s += kWeights[k] * b[k];
  return s + r0 + r1 + r2 + static_cast<float>(kBias[i % 2]);
}
