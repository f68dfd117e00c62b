#include <culift/annotate.hpp>
#include <vector>
CULIFT_KERNEL int f(int a) {
  std::vector<int> v(3);  // corpus-error
  return a;
}
