#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  (void)"text";  // expected-error {{string literals are not supported}}
  return a;
}
