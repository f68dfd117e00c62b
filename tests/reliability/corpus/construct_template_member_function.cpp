#include <culift/annotate.hpp>
struct Ops {
  template <typename T> CULIFT_KERNEL static T twice(T a) { return a + a; }  // expected-error {{annotated function template 'twice' has no explicit instantiation}}
};
