#include <culift/annotate.hpp>
#include <typeinfo>
CULIFT_KERNEL int f(int a) {
  return (int)typeid(a).hash_code();  // expected-error {{call to method 'hash_code' of a library type is not supported}}
}
