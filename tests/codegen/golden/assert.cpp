// assert(cond): culift_assert, compiled out unless CULIFT_DEVICE_ASSERTS is defined; the
// condition's text and location go with it, a message joined with && too.
#include <culift/annotate.hpp>

#include <cassert>

float Checked(float v) {
  assert(v == v && "not a NaN");
  return v;
}

CULIFT_KERNEL float Mean(const float* x, int n, int i) {
  assert(n > 0);
  assert(i >= 0 ? true : false);
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += Checked(x[k]);
  return sum / (float)n + (float)i * 0.0f;
}
