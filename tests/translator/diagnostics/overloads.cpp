// Two lifted functions with one name: CUDA C would need them to be distinct.
#include <culift/annotate.hpp>

float half(float x) { return x / 2; }
double half(double x) { return x / 2; }  // expected-error {{two lifted functions are named 'half'}}

CULIFT_KERNEL float useBoth(float x, double y) { return half(x) + half(y); }
