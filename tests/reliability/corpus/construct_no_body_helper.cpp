#include <culift/annotate.hpp>
float helperWithoutBody(float);
CULIFT_KERNEL float f(float a) {
  return helperWithoutBody(a);  // corpus-error
}
