#include <culift/annotate.hpp>
struct S {
  CULIFT_KERNEL int f(int a) { return a; }  // expected-error {{'S::f' is a non-static member function: a kernel must be a free function or a static member function}}
};
