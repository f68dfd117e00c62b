#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int v[3] = {1, 2, 3};
  int s = 0;
  for (int x : v) s += x;  // corpus-error
  return s + a;
}
