#include <culift/annotate.hpp>
thread_local int t_state = 0;
CULIFT_KERNEL int f(int a) {
  return a + t_state;  // corpus-error
}
