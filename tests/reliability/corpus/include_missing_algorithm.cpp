#include <culift/annotate.hpp>
#include <cstdint>
CULIFT_KERNEL int f(int a, int b) {
  return std::clamp(a, 0, b);  // expected-error {{no member named 'clamp' in namespace 'std'}}
}
