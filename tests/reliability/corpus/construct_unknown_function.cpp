#include <culift/annotate.hpp>
int external(int);
CULIFT_KERNEL int f(int a) {
  return external(a);  // expected-error {{call to 'external', which has no body culift can see}}
}
