#include <culift/annotate.hpp>
int g_scale = 3;
CULIFT_KERNEL int f(int a) {
  return a * g_scale;  // corpus-error
}
