#include <culift/annotate.hpp>
#include <typeinfo>
CULIFT_KERNEL int f(int a) {
  return (int)typeid(a).hash_code();  // corpus-error
}
