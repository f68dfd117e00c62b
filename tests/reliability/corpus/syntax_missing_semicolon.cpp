#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int b = a  // expected-error {{expected ';' at end of declaration}}
  return b;
}
