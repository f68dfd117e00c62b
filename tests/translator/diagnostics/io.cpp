// I/O from a kernel.
#include <culift/annotate.hpp>
#include <cstdio>
#include <iostream>

CULIFT_KERNEL float logs(float x) {
  printf("%f\n", x);  // expected-error {{I/O is not available in culift kernels}}
  std::printf("%f\n", x);  // expected-error {{I/O is not available in culift kernels}}
  puts("hello");  // expected-error {{I/O is not available in culift kernels}}
  std::cout << x << "\n";  // expected-error {{I/O is not available in culift kernels}}
  std::cout.flush();  // expected-error {{I/O is not available in culift kernels}}
  return x;
}
