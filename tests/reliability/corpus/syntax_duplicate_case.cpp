#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  switch (a) {
    case 1: return 1;
    case 1: return 2;  // corpus-error
  }
  return 0;
}
