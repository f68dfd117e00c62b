#include <culift/annotate.hpp>
struct Shape {
  virtual ~Shape() = default;
  float area;
};
CULIFT_KERNEL float f(float a) {
  Shape s;  // expected-error {{local variable 's' has type 'Shape': a struct with virtual functions is not supported}}
  s.area = a;
  return s.area;
}
