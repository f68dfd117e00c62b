#include <culift/annotate.hpp>
CULIFT_KERNEL int f(double a) {
  int b{a};  // expected-error {{type 'double' cannot be narrowed to 'int' in initializer list}}
  return b;
}
