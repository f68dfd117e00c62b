#include <culift/annotate.hpp>
template <typename T> CULIFT_KERNEL T f(T a) { return a; }  // expected-error {{annotated function template 'f' has no explicit instantiation: culift makes kernels of the instances an explicit instantiation names}}
