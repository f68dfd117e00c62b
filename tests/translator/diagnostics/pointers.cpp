// Local pointers, pointer arithmetic, dereference and address-of.
#include <culift/annotate.hpp>

CULIFT_KERNEL float localPointer(const float* x, int i) {
  const float* row = x + i;  // expected-error {{local pointer variable 'row' is not supported}}
  return row[0];
}

CULIFT_KERNEL float dereference(const float* x, int i) {
  return *(x + i);  // expected-error {{pointer dereference is not supported}}
}

CULIFT_KERNEL float offset(const float* x, int i) {
  return (x + 1)[i];  // expected-error {{pointer arithmetic is not supported}}
}

CULIFT_KERNEL float addressOf(float v) {
  (void)&v;  // expected-error {{taking an address is not supported}}
  return v;
}

CULIFT_KERNEL void pointerStep(float* x, int i) {
  x++;  // expected-error {{pointer arithmetic is not supported}}
  x[i] = 0.0f;
}

CULIFT_KERNEL bool samePointer(const float* a, const float* b, int i) {
  return a == b;  // expected-error {{pointer comparison is not supported}}
}

CULIFT_KERNEL bool nonNull(const float* a, int i) {
  if (a) return true;  // expected-error {{pointer conversion 'PointerToBoolean' is not supported}}
  return a[i] > 0;
}

CULIFT_KERNEL int usesNull(const int* x, int i) {
  return x != nullptr;  // expected-error {{pointer comparison is not supported}}
}
