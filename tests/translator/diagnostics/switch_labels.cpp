// Case labels must be direct statements of the switch body; no case ranges.
#include <culift/annotate.hpp>

CULIFT_KERNEL int duff(int n) {
  int r = 0;
  switch (n % 2) {
    case 0:
      r = 1;
      if (n > 4) {
        case 1:  // expected-error {{a case label nested inside another statement is not supported}}
          r = 2;
      }
      break;
  }
  return r;
}

CULIFT_KERNEL int ranges(int n) {
  switch (n) {
    case 1 ... 3:  // expected-error {{case ranges}}
      return 1;
  }
  return 0;
}

CULIFT_KERNEL int notABlock(int n) {
  switch (n)  // expected-error@+1 {{the body of a switch must be a block}}
    case 1: return 1;
  return 0;
}
