#include <culift/annotate.hpp>
#include <atomic>
CULIFT_KERNEL int f(int a) {
  std::atomic<int> c{a};  // expected-error {{local variable 'c' has class type 'std::atomic<int>': library types are not supported}}
  return c.load();
}
