#include <culift/annotate.hpp>
struct S { int v; };
CULIFT_KERNEL int f(int a) {
  S s = a;  // expected-error {{no viable conversion from 'int' to 'S'}}
  return 0;
}
