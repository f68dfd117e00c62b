#include <culift/annotate.hpp>
CULIFT_KERNEL int f(int a) {
  return ({ int t = a; t; });  // expected-error {{unsupported expression 'StmtExpr'}}
}
