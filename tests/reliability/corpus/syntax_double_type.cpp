#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  int int b = a;  // expected-error {{cannot combine with previous 'int' declaration specifier}}
  return b;
}
