#include <culift/annotate.hpp>
// Called by a kernel (an implicit instance), but no explicit instantiation names an instance.
template <typename T> CULIFT_KERNEL T twice(T a) { return a + a; }  // expected-error {{annotated function template 'twice' has no explicit instantiation: culift makes kernels of the instances an explicit instantiation names ('twice' is only instantiated implicitly, by a call)}}
CULIFT_KERNEL float user(float a) { return twice(a); }
