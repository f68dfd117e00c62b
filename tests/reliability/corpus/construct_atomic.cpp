#include <culift/annotate.hpp>
#include <atomic>
CULIFT_KERNEL int f(int a) {
  std::atomic<int> c{a};  // corpus-error
  return c.load();
}
