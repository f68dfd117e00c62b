#include <culift/annotate.hpp>
int g_total = 0;
CULIFT_KERNEL int f(int a) {
  g_total += a;  // expected-error {{non-const global variable 'g_total' cannot be used in a culift kernel}}
  return a;
}
