#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return;  // expected-error {{non-void function 'f' should return a value}}
}
