// Function templates, annotated or called.
#include <culift/annotate.hpp>

template <typename T> CULIFT_KERNEL T generic(T x) { return x; }  // expected-error {{'generic' is a function template}}

template <typename T> T twice(T x) { return x + x; }

CULIFT_KERNEL float usesTemplate(float x) {
  return twice(x);  // expected-error {{an instance of a function template}}
}
