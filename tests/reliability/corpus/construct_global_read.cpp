#include <culift/annotate.hpp>
int g_scale = 3;
CULIFT_KERNEL int f(int a) {
  return a * g_scale;  // expected-error {{non-const global variable 'g_scale' cannot be used in a culift kernel}}
}
