#include <culift/annotate.hpp>
union Bits {
  float f;
  unsigned u;
};
CULIFT_KERNEL unsigned f(float a) {
  Bits b{a};  // expected-error {{local variable 'b' has type 'Bits': unions are not supported}}
  return b.u;
}
