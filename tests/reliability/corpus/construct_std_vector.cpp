#include <culift/annotate.hpp>
#include <vector>
CULIFT_KERNEL float f(float a) {
  std::vector<float> v(3, a);  // expected-error {{local variable 'v' has class type 'std::vector<float>': structs, classes, unions and library types are not supported}}
  return v[0];
}
