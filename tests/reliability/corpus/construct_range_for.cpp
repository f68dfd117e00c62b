#include <culift/annotate.hpp>
#include <initializer_list>
CULIFT_KERNEL int f(int a) {
  int s = 0;
  for (int x : {1, 2, 3}) s += x;  // expected-error {{a range-based for loop can only run over a local array}}
  return s + a;
}
