#include <culift/annotate.hpp>
CULIFT_KERNEL float f(int a) {
  union { int i; float f; } u;  // expected-error {{local struct, class and union definitions are not supported}}
  u.i = a;
  return u.f;
}
