// Constants that stay rejected, asserts whose condition changes something, and misused
// CULIFT_UNIFORM annotations.
#include <culift/annotate.hpp>
#include <cassert>
#include <cmath>
#include <limits>

CULIFT_KERNEL float signalingFloat(float x) {
  return x + std::numeric_limits<float>::signaling_NaN();  // expected-error {{signaling NaNs are not supported}}
}

CULIFT_KERNEL double signalingBuiltin(double x) {
  return x + __builtin_nans("");  // expected-error {{signaling NaNs are not supported}}
}

CULIFT_KERNEL double longDoubleLimits(double x) {
  return x + (double)std::numeric_limits<long double>::max();  // expected-error {{'long double' is not supported}}
}

CULIFT_KERNEL int assertIncrements(int n) {
  assert(n++ > 0);  // expected-error {{the condition of assert changes a variable or an array}}
  return n;
}

CULIFT_KERNEL int assertAssigns(int n) {
  int m = 0;
  assert((m = n) > 0);  // expected-error {{the condition of assert changes a variable or an array}}
  return n + m;
}

bool writesFlag(int* flags, int i) {
  flags[i] = 1;
  return true;
}

CULIFT_KERNEL void assertCallsWriter(int* flags, int i) {
  assert(writesFlag(flags, i));  // expected-error {{the condition of assert changes a variable or an array}}
}

CULIFT_UNIFORM(slope) float uniformNotParam(float x, float a) { return x * a; }  // expected-error {{names 'slope', which is not a parameter of 'uniformNotParam'}}

CULIFT_UNIFORM(x) float uniformArray(const float* x, int i) { return x[i]; }  // expected-error {{names 'x', an array: only scalar parameters can be uniform}}

CULIFT_UNIFORM(a, a) float uniformTwice(float x, float a) { return x * a; }  // expected-error {{names 'a' twice}}
