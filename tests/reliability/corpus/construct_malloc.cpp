#include <culift/annotate.hpp>
#include <cstdlib>
CULIFT_KERNEL int f(int a) {
  void* p = std::malloc(4);  // corpus-error
  return a;
}
