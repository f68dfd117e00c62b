#include <culift/annotate.hpp>
CULIFT_KERNEL float f(int a) {
  union { int i; float f; } u;  // corpus-error
  u.i = a;
  return u.f;
}
