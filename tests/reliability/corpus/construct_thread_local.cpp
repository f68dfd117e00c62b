#include <culift/annotate.hpp>
thread_local int t_state = 0;
CULIFT_KERNEL int f(int a) {
  return a + t_state;  // expected-error {{non-const global variable 't_state' cannot be used in a culift kernel}}
}
