#include <culift/annotate.hpp>
template <typename T> CULIFT_KERNEL T f(T a) { return a; }  // expected-error {{'f' is a function template: templates are not supported}}
template int f<int>(int);
