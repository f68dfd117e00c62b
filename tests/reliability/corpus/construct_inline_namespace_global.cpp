#include <culift/annotate.hpp>
namespace cfg { const float* table = nullptr; }
CULIFT_KERNEL float f(int i) {
  return cfg::table[i];  // expected-error {{non-const global variable 'table' cannot be used in a culift kernel}}
}
