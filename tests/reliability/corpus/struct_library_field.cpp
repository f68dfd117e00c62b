#include <culift/annotate.hpp>
#include <vector>
struct Bag {
  std::vector<float> items;
};
CULIFT_KERNEL float f(float a) {
  Bag b;  // expected-error {{local variable 'b' has type 'Bag': its field 'Bag::items' has unsupported type 'std::vector<float>'}}
  return a;
}
