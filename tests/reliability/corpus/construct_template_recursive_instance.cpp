#include <culift/annotate.hpp>
template <int N> int steps(int a) {
  return a <= 1 ? N : steps<N>(a / 2);  // expected-error {{recursive call to 'steps_2'}}
}
CULIFT_KERNEL int f(int a) { return steps<2>(a); }
