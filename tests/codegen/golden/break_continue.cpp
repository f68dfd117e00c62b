// Break and continue in nested loops.
#include <culift/annotate.hpp>

CULIFT_KERNEL int BreakContinue(const int* x, int n, int i) {
  int found = -1;
  for (int k = 0; k < n; ++k) {
    if (x[k] < 0) continue;
    int j = 0;
    while (true) {
      if (j >= k) break;
      ++j;
    }
    if (x[k] == i) {
      found = k;
      break;
    }
  }
  return found;
}
