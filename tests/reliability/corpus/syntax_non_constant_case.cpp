#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a, int b) {
  switch (a) {
    case b: return 1;  // corpus-error
  }
  return 0;
}
