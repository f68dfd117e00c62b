// Switch with fall-through, a block case, negative and unsigned labels, default last.
#include <culift/annotate.hpp>

CULIFT_KERNEL int SwitchFallthrough(int code, unsigned mode, int i) {
  int r = 0;
  switch (code) {
    case -1:
      r = 100;
      break;
    case 1:
      r += 1;
    case 2:
      r += 2;
      break;
    case 3: {
      int t = code * 3;
      r = t;
      break;
    }
    default:
      r = -i;
  }
  switch (mode) {
    case 4000000000u:
      r *= 2;
    default:;
  }
  return r;
}
