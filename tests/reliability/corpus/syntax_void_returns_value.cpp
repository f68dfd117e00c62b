#include <culift/annotate.hpp>
CULIFT_KERNEL void f(float* o, int i) {
  return 1;  // expected-error {{void function 'f' should not return a value}}
}
