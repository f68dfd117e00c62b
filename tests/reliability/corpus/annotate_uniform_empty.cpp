#include <culift/annotate.hpp>
CULIFT_UNIFORM() float f(float x, float a) { return x * a; }  // expected-error {{CULIFT_UNIFORM on 'f' has an empty parameter name}}
