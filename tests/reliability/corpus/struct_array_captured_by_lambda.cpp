#include <culift/annotate.hpp>
struct P { float x, v; };
CULIFT_KERNEL float f(float a) {
  P ps[2] = {{a, 1.0f}, {2.0f, a}};
  auto sum = [&ps]() { return ps[0].x + ps[1].v; };  // expected-error {{capture 'ps' of type 'P[2]' is not supported}}
  return sum();
}
