// Functions with no body culift can see, and library functions that are not math.
#include <culift/annotate.hpp>
#include <algorithm>
#include <cstdlib>

float external(float x);

CULIFT_KERNEL float callsExternal(float x) {
  return external(x);  // expected-error {{call to 'external', which has no body culift can see}}
}

CULIFT_KERNEL int callsLibrary(int x) {
  return std::rand() + x;  // expected-error {{call to 'rand' is not supported}}
}

CULIFT_KERNEL float callsSwap(float a, float b) {
  std::swap(a, b);  // expected-error {{call to 'std::swap' is not supported}}
  return a;
}

CULIFT_KERNEL float callsThroughPointer(float x) {
  float (*fn)(float) = nullptr;  // expected-error {{local pointer variable 'fn'}}
  return fn(x);
}
