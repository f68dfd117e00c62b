#include <culift/annotate.hpp>
#include <vector>
CULIFT_KERNEL int f(int a) {
  std::vector<int> v(3);  // expected-error {{local variable 'v' has class type 'std::vector<int>': library types are not supported}}
  return a;
}
