#include <culift/annotate.hpp>
CULIFT_KERNEL int f(float x) {
  return reinterpret_cast<int&>(x);  // expected-error {{'CXXReinterpretCastExpr' is not supported}}
}
