// Local arrays: partial initializer lists (rest zero), an empty list, no initializer.
#include <culift/annotate.hpp>

CULIFT_KERNEL float LocalArray(const float* x, int i) {
  const float weights[5] = {0.1f, 0.2f, 0.4f};
  int hits[4] = {};
  float window[3];
  for (int k = 0; k < 3; ++k) window[k] = x[i + k];
  hits[i % 4] = 1;
  float s = 0.0f;
  for (int k = 0; k < 3; ++k) s += weights[k] * window[k];
  return s + hits[0] + weights[4];
}
