#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  switch (a) {
    case 1: return 1;
    case 1: return 2;  // expected-error {{duplicate case value '1'}}
  }
  return 0;
}
