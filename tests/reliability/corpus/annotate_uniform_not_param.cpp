#include <culift/annotate.hpp>
CULIFT_UNIFORM(slope) float f(float x, float a) { return x * a; }  // expected-error {{CULIFT_UNIFORM on 'f' names 'slope', which is not a parameter of 'f'}}
