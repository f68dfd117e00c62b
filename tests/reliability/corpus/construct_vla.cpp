#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int n) {
  int v[n];  // expected-error {{variable-length array 'v' is not supported}}
  return n;
}
