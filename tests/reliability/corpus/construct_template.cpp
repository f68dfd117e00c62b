#include <culift/annotate.hpp>
template <typename T> CULIFT_KERNEL T f(T a) { return a; }  // corpus-error
template int f<int>(int);
