#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  case 1: return a;  // expected-error {{'case' statement not in switch statement}}
  return 0;
}
