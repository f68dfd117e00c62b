// 1-D kernels that keep a minimum, a maximum or its position: a warp per output, lane l keeping
// the best of iterations l, l + 32, ... with the iteration it came from, then a tree of shuffles
// that keeps, of equal candidates, the one the loop keeps. The loop's own result, bit for bit.
#include <culift/annotate.hpp>

#include <algorithm>
#include <cmath>

CULIFT_KERNEL float RowMax(const float* x, int n, int i) {
  float m = x[(long long)i * n];
  for (int k = 1; k < n; ++k) m = std::max(m, x[(long long)i * n + k]);
  return m;
}

CULIFT_KERNEL int ArgMax(const float* x, int n, int i) {
  float best = -INFINITY;
  int arg = -1;
  for (int k = 0; k < n; ++k) {
    const float v = x[i * n + k];
    if (v > best) {
      best = v;
      arg = k;
    }
  }
  return arg;
}

CULIFT_KERNEL double RowFmin(const double* x, int n, int i) {
  double m = NAN;
  for (int k = 0; k < n; ++k) m = std::fmin(x[i * n + k], m);
  return m;
}

CULIFT_KERNEL short LastMax(const short* x, int n, int i) {
  short m = 0;
  for (int k = 0; k < n; ++k) m = std::max(x[i * n + k], m);
  return m;
}
