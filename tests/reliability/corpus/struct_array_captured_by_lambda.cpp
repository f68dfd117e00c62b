#include <culift/annotate.hpp>
struct P { float x, v; };
CULIFT_KERNEL float f(float a) {
  P ps[2] = {{a, 1.0f}, {2.0f, a}};
  auto sum = [q = ps]() { return q[0].x + q[1].v; };  // expected-error {{capture 'q' of type 'P *' is not supported}}
  return sum();
}
