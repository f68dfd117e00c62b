#include <culift/annotate.hpp>
struct F { unsigned a : 3; };
CULIFT_KERNEL unsigned f(unsigned x) {
  F v{};  // expected-error {{local variable 'v' has class type 'F': structs, classes, unions and library types are not supported}}
  return x;
}
