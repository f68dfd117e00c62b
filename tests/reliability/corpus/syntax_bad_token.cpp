#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return a @ 2;  // expected-error {{expected ';' after return statement}}
}
