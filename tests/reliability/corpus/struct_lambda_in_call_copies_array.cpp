#include <culift/annotate.hpp>
struct H { float counts[2]; };
template <class F> float apply(F f, int k) { return f(k); }
CULIFT_KERNEL float f(float a) {
  H h{{a, a}};
  return apply([h](int k) { return h.counts[k]; }, 1);  // expected-error {{the struct 'h' has an array field ('counts'): a lambda written in a call cannot copy it}}
}
