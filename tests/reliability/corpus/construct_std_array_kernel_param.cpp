#include <culift/annotate.hpp>
#include <array>
CULIFT_KERNEL float f(std::array<float, 3> w, float a) { return w[0] * a; }  // expected-error {{std::array parameter 'w' of a kernel is not supported}}
