#include <culift/annotate.hpp>
struct P { float w[2]; };
CULIFT_KERNEL float f(float a) {
  P ps[2] = {{{a, a}}, {{a, a}}};  // expected-error {{local array 'ps' of structs with an array field ('w') is not supported}}
  return ps[0].w[0];
}
