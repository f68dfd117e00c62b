#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  break;  // expected-error {{'break' statement not in loop or switch statement}}
  return a;
}
