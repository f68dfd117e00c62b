#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float a, int i) {
  float m[2][3] = {{a, a, a}, {a, a, a}};
  const auto& row = m[i];  // expected-error {{a row of a multi-dimensional array cannot be used as a value: only its elements can}}
  return row[0];
}
