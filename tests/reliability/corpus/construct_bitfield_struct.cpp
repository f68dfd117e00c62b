#include <culift/annotate.hpp>
struct F { unsigned a : 3; };
CULIFT_KERNEL unsigned f(unsigned x) {
  F v{};  // expected-error {{local variable 'v' has type 'F': its bit-field 'F::a' is not supported}}
  return x;
}
