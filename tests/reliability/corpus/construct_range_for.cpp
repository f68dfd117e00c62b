#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int v[3] = {1, 2, 3};
  int s = 0;
  for (int x : v) s += x;  // expected-error {{range-based for loops are not supported}}
  return s + a;
}
