#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  void* t = &&end;  // expected-error {{local pointer variable 't' is not supported}}
  goto *t;
end:
  return a;
}
