// Helpers taking structs by value, by const reference and by reference, and returning them;
// structured bindings of a struct and of a local array; a kernel taking a struct by value takes
// its fields (element-wise: each an array, the uniform one a scalar).
#include <culift/annotate.hpp>

struct MinMax {
  float lo, hi;
};
struct Affine {
  float scale, offset;
};

inline MinMax order(float a, float b) {
  if (a < b) return {a, b};
  return {b, a};
}
inline void widen(MinMax& m, const Affine& by) {
  m.lo = m.lo * by.scale - by.offset;
  m.hi = m.hi * by.scale + by.offset;
}
inline float width(MinMax m) { return m.hi - m.lo; }

CULIFT_KERNEL float StructResults(const float* x, int i) {
  auto [lo, hi] = order(x[i], x[i + 1]);
  MinMax m = order(hi, lo);
  widen(m, Affine{2.0f, 0.5f});
  float w[2] = {lo, hi};
  auto& [first, second] = w;
  first = width(m);
  return first + second;
}

CULIFT_KERNEL CULIFT_UNIFORM(by) float Apply(Affine by, float v) { return v * by.scale + by.offset; }
