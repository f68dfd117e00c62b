#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  void* t = &&end;  // corpus-error
  goto *t;
end:
  return a;
}
