// Local arrays must have constant sizes; a row of a multi-dimensional array is no value.
#include <culift/annotate.hpp>

inline float first(const float* row) { return row[0]; }

CULIFT_KERNEL float matrix(int i) {
  float m[2][3] = {};
  return first(m[i]);  // expected-error {{a row of the multi-dimensional array 'm' cannot be used as a value}}
}

CULIFT_KERNEL float variableRows(int n, int i) {
  float m[2][n];  // expected-error {{variable-length array 'm' is not supported}}
  return m[0][i];
}

CULIFT_KERNEL float variable(int n, int i) {
  float v[n];  // expected-error {{variable-length array 'v' is not supported}}
  v[i] = 1.0f;
  return v[i];
}
