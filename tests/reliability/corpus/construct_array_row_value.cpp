#include <culift/annotate.hpp>
inline float first(const float* row) { return row[0]; }
CULIFT_KERNEL float f(float a, int i) {
  float m[2][3] = {{a, a, a}, {a, a, a}};
  return first(m[i]);  // expected-error {{a row of the multi-dimensional array 'm' cannot be used as a value: only its elements can}}
}
