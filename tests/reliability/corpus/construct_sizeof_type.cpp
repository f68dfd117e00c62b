#include <culift/annotate.hpp>
struct Big { double d[4][4]; };
CULIFT_KERNEL int f(int a) {
  Big b{};  // expected-error {{local variable 'b' has type 'Big': its multi-dimensional array field 'Big::d' is not supported}}
  return a + static_cast<int>(sizeof(Big));
}
