#include <culift/annotate.hpp>
#include <array>
inline std::array<float, 2> pair(float a) { return {a, -a}; }
CULIFT_KERNEL float f(float a) {
  return pair(a)[1];  // expected-error {{the std::array 'pair' returns must initialize or be assigned to a local array}}
}
