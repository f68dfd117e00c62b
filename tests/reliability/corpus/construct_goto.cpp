#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
again:
  if (a > 0) { --a; goto again; }  // expected-error {{goto is not supported}}
  return a;
}
