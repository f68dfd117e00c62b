// For loops: a declaration, a declaration group, an expression init, empty parts.
#include <culift/annotate.hpp>

CULIFT_KERNEL int ForLoop(const int* x, int n, int i) {
  int acc = 0;
  for (int k = 0; k < n; ++k) acc += x[k];
  for (int lo = 0, hi = n - 1; lo < hi; ++lo, --hi) acc += x[lo] * x[hi];
  int m;
  for (m = 0; m < 3; m++) {
    acc ^= m;
  }
  for (;;) {
    if (acc > i) break;
    acc += 7;
  }
  return acc;
}
