#include <culift/annotate.hpp>
#include <array>
inline std::array<float, 2>& local(float a) {  // expected-error {{'local' returns a reference: functions returning references are not supported}}
  std::array<float, 2> v = {a, a};
  return v;
}
CULIFT_KERNEL float f(float a) {
  std::array<float, 2> w = local(a);
  return w[0];
}
