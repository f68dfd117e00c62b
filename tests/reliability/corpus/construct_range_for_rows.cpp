#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float a) {
  float m[2][3] = {{a, a, a}, {a, a, a}};
  float s = 0.0f;
  for (auto row : m)  // expected-error {{a copy of a row of a multi-dimensional array is not supported: bind the row by reference}}
    s += row[0];
  return s;
}
