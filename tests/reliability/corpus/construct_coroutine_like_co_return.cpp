#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  co_return a;  // corpus-error
}
