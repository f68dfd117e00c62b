#include <culift/annotate.hpp>
#include <cstdio>
CULIFT_KERNEL int f(int a) {
  std::printf("%d", a);  // corpus-error
  return a;
}
