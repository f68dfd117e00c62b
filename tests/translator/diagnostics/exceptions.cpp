// Exceptions do not exist on the device.
#include <culift/annotate.hpp>

CULIFT_KERNEL float checked(float x) {
  if (x < 0) throw 1;  // expected-error {{throw is not supported}}
  return x;
}

CULIFT_KERNEL float guarded(float x) {
  try {  // expected-error {{try/catch is not supported}}
    x = x * 2;
  } catch (...) {
  }
  return x;
}
