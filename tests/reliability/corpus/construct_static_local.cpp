#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  static int count = 0;  // expected-error {{static local variable 'count' is not supported}}
  return a + count;
}
