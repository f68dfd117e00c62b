#include <culift/annotate.hpp>
template <int N> CULIFT_KERNEL float scaled(float a) { return a * N; }  // expected-error {{annotated function template 'scaled' has no explicit instantiation: culift makes kernels of the instances an explicit instantiation names}}
