#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return a; /* never closed  // expected-error {{unterminated /* comment}}
}
