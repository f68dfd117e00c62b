#include <culift/annotate.hpp>
#include <cstdlib>
CULIFT_KERNEL int f(int a) {
  void* p = std::malloc(4);  // expected-error {{local pointer variable 'p' is not supported}}
  return a;
}
