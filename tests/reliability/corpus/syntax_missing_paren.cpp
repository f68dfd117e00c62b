#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return (a + 1;  // expected-error {{expected ')'}}
}
