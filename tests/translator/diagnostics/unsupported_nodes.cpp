// Constructs outside the subset are named, never crash the translator.
#include <culift/annotate.hpp>

#include <initializer_list>

CULIFT_KERNEL int rangeFor(const int* x, int i) {
  int s = 0;
  for (int v : {1, 2, 3}) s += v;  // expected-error {{a range-based for loop can only run over a local array}}
  return s + x[i];
}

CULIFT_KERNEL int statementExpression(int a) {
  return ({ int t = a; t; });  // expected-error {{unsupported expression 'StmtExpr'}}
}

CULIFT_KERNEL int reinterpret(float x) {
  return reinterpret_cast<int&>(x);  // expected-error {{'CXXReinterpretCastExpr' is not supported}}
}

CULIFT_KERNEL float text(float x) {
  (void)"a string";  // expected-error {{string literals are not supported}}
  return x;
}

CULIFT_KERNEL int variadic(int n, ...) { return n; }  // expected-error {{'variadic' is variadic}}
