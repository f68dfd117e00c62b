#include <culift/annotate.hpp>
[[clang::annotate("culift:frobnicate")]] int f(int a) { return a; }  // expected-error {{unknown culift annotation 'culift:frobnicate' on 'f'}}
