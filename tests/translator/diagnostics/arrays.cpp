// Local arrays must be 1-D with a constant size.
#include <culift/annotate.hpp>

CULIFT_KERNEL float matrix(int i) {
  float m[2][3] = {};  // expected-error {{multi-dimensional local array 'm' is not supported}}
  return m[0][i];
}

CULIFT_KERNEL float variable(int n, int i) {
  float v[n];  // expected-error {{variable-length array 'v' is not supported}}
  v[i] = 1.0f;
  return v[i];
}
