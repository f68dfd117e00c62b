#include <culift/annotate.hpp>
template <typename T> struct Ops {
  CULIFT_KERNEL static T twice(T a) { return a + a; }  // expected-error {{'twice' is a function template: culift lifts its instances, not the template}}
};
