#include <culift/annotate.hpp>
#include <cstdio>
CULIFT_KERNEL int f(int a) {
  std::printf("%d", a);  // expected-error {{I/O is not available in culift kernels}}
  return a;
}
