#include <culift/annotate.hpp>
namespace cfg { const float* table = nullptr; }
CULIFT_KERNEL float f(int i) {
  return cfg::table[i];  // corpus-error
}
