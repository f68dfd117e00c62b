// Function templates: an annotated one becomes kernels only through explicit instantiations;
// instances called from lifted functions are lifted, but may not call themselves.
#include <culift/annotate.hpp>

template <typename T> CULIFT_KERNEL T generic(T x) { return x; }  // expected-error {{annotated function template 'generic' has no explicit instantiation}}

template <typename T> T twice(T x) { return x + x; }

CULIFT_KERNEL float usesTemplate(float x) { return twice(x); }

template <int N> int countdown(int x) {
  return x <= 0 ? N : countdown<N>(x - 1);  // expected-error {{recursive call to 'countdown_3'}}
}

CULIFT_KERNEL int usesRecursiveInstance(int x) { return countdown<3>(x); }
