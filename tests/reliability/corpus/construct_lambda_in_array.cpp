#include <culift/annotate.hpp>
CULIFT_KERNEL float f(float a) {
  auto sq = [](float x) { return x * x; };
  decltype(sq) table[2] = {sq, sq};  // expected-error {{a lambda cannot be stored in an array ('table')}}
  return table[0](a);
}
