#include <culift/annotate.hpp>
#include <string>
struct Named {
  std::string name;
  float x;
};
CULIFT_KERNEL float f(float a) {
  Named n;  // expected-error {{local variable 'n' has type 'Named': its field 'Named::name' has unsupported type 'std::string'}}
  n.x = a;
  return n.x;
}
