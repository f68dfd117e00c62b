// Range for over local arrays: by copy, by reference (writing the elements), converting.
#include <culift/annotate.hpp>

CULIFT_KERNEL float RangeFor(const float* x, int i) {
  float w[3] = {x[i], x[i + 1], x[i + 2]};
  for (float& v : w) v = v * 0.5f;
  float s = 0.0f;
  for (float v : w) s += v;
  double d = 0.0;
  for (double v : w) d += v;
  return s + static_cast<float>(d);
}
