#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  const char* s = "abc;  // expected-error {{expected expression}}
  return a;
}
