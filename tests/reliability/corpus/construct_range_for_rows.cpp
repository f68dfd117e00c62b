#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float a) {
  float m[2][3] = {{a, a, a}, {a, a, a}};
  float s = 0.0f;
  for (const auto& row : m)  // expected-error {{a range-based for loop over the rows of a multi-dimensional array is not supported}}
    for (float v : row) s += v;
  return s;
}
