#include <culift/annotate.hpp>
struct Big { double d[4]; };
CULIFT_KERNEL int f(int a) {
  Big b{};  // corpus-error
  return a;
}
