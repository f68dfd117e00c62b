#include <culift/annotate.hpp>
struct F { unsigned a : 3; };
CULIFT_KERNEL unsigned f(unsigned x) {
  F v{};  // corpus-error
  return x;
}
