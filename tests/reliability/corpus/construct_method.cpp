#include <culift/annotate.hpp>
struct S {
  CULIFT_KERNEL int f(int a) { return a; }  // expected-error {{'S::f' is a non-static member function: only static ones are supported}}
};
