// Syntax and semantic errors found by Clang: all of them, and nothing is lifted.
#include <culift/annotate.hpp>

CULIFT_KERNEL float broken(float x) {
  return x +;  // expected-error {{expected expression}}
}

CULIFT_KERNEL int undeclared(int i) { return y + i; }  // expected-error {{use of undeclared identifier 'y'}}
