// While and do-while loops.
#include <culift/annotate.hpp>

CULIFT_KERNEL unsigned WhileDo(unsigned v, int i) {
  unsigned steps = 0;
  while (v != 1u && steps < 1000u) {
    v = (v % 2u == 0u) ? v / 2u : 3u * v + 1u;
    ++steps;
  }
  do {
    steps += (unsigned)i + 1u;
  } while (steps < 10u);
  return steps;
}
