#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  if (a) {
    return 1;
  return 0;
}  // expected-error {{expected '}'}}
