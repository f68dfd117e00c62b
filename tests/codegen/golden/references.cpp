// References to scalars: output parameters, const references (bound to variables, array
// elements and temporaries), a reference parameter passed on, and reference locals that alias
// an array element.
#include <cmath>
#include <culift/annotate.hpp>

inline void sincosPair(float a, float& s, float& c) {
  s = std::sin(a);
  c = std::cos(a);
}
inline void accumulate(float& acc, const float& v) { acc += v; }
inline void addTwice(float& r, const float& v) {
  accumulate(r, v);
  accumulate(r, v);
}

CULIFT_KERNEL float References(float* y, int i) {
  float s, c;
  sincosPair(y[i], s, c);
  accumulate(y[i], s * c);
  addTwice(s, y[i]);
  const float& old = y[i];
  y[i] = y[i] * 2.0f;
  float& w = c;
  w += old;
  const double& wide = s;
  return c + static_cast<float>(wide);
}
