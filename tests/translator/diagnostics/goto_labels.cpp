// goto and labels.
#include <culift/annotate.hpp>

CULIFT_KERNEL int jumps(int n) {
  int s = 0;
again:  // expected-error {{labels and goto are not supported}}
  s += n;
  if (s < 100) goto again;  // expected-error {{goto is not supported}}
  return s;
}
