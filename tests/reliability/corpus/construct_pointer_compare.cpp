#include <culift/annotate.hpp>
CULIFT_KERNEL int f(const int* a, const int* b, int i) {
  return a == b ? i : 0;  // expected-error {{pointer comparison is not supported}}
}
