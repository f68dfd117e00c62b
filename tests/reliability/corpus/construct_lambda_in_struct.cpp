#include <culift/annotate.hpp>
template <class F> struct Box {
  F f;
};
CULIFT_KERNEL float f(float a) {
  auto scale = [a](float x) { return a * x; };
  Box<decltype(scale)> b{scale};  // expected-error {{local variable 'b' has type 'Box<decltype(scale)>': its field 'Box::f' has unsupported type '(lambda}}
  return b.f(a);
}
