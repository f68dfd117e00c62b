#include <culift/annotate.hpp>
struct Big { double d[4]; };
CULIFT_KERNEL int f(int a) {
  Big b{};  // expected-error {{local variable 'b' has class type 'Big': structs, classes, unions and library types are not supported}}
  return a;
}
