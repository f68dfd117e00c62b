#include <culift/annotate.hpp>
[[clang::annotate("culift:frobnicate")]] int f(int a) { return a; }  // corpus-error
