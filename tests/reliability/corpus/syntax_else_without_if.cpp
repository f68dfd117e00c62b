#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  else return a;  // expected-error {{expected expression}}
  return 0;
}
