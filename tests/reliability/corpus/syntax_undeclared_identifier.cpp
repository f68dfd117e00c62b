#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return a + undeclared;  // expected-error {{use of undeclared identifier 'undeclared'}}
}
