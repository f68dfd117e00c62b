// Regression: a return of a comma expression after a lifted loop. The entry stores the value in a
// declaration, where `T r = a, b;` would declare a second variable: the comma keeps its parentheses.
#include <culift/annotate.hpp>

CULIFT_KERNEL float LastOf(const float* x, const float* w, int n, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += x[i * n + k] * w[j * n + k];
  return x[0], acc;
}
