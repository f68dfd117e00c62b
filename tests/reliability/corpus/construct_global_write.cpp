#include <culift/annotate.hpp>
int g_total = 0;
CULIFT_KERNEL int f(int a) {
  g_total += a;  // corpus-error
  return a;
}
