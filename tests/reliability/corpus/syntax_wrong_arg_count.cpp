#include <culift/annotate.hpp>
inline int g(int x) { return x; }
CULIFT_KERNEL int f(int a) {
  return g(a, a);  // expected-error {{no matching function for call to 'g'}}
}
