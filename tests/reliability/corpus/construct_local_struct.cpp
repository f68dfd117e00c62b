#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  struct L { int v; } l{a};  // expected-error {{local struct, class and union definitions are not supported}}
  return l.v;
}
