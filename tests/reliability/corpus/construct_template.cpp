#include <culift/annotate.hpp>
template <typename T> CULIFT_KERNEL T f(T a) { return a; }  // expected-error {{annotated function template 'f' is never instantiated: culift lifts the instances an explicit instantiation names}}
