#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int b = a;
  int b = 2;  // expected-error {{redefinition of 'b'}}
  return b;
}
