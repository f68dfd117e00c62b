#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a, int b) {
  switch (a) {
    case b: return 1;  // expected-error {{case value is not a constant expression}}
  }
  return 0;
}
