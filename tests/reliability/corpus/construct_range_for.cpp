#include <culift/annotate.hpp>
constexpr int kWeights[3] = {1, 2, 3};
CULIFT_KERNEL int f(int a) {
  int s = 0;
  for (int x : kWeights) s += x;  // expected-error {{a range-based for loop can only run over a local array}}
  return s + a;
}
