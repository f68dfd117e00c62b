#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return a;
  // expected-error {{expected '}'}}
