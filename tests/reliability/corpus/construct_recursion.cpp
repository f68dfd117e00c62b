#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return a <= 1 ? 1 : a * f(a - 1);  // expected-error {{recursive call to 'f'}}
}
