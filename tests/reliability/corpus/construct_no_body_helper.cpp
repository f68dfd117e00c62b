#include <culift/annotate.hpp>
float helperWithoutBody(float);
CULIFT_KERNEL float f(float a) {
  return helperWithoutBody(a);  // expected-error {{call to 'helperWithoutBody', which has no body culift can see}}
}
