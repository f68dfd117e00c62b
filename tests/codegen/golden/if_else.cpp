// If, else if, else; branches without braces get them.
#include <culift/annotate.hpp>

CULIFT_KERNEL float IfElse(const float* x, int i) {
  float v = x[i];
  if (v < 0.0f)
    return -v;
  else if (v > 10.0f) {
    v = 10.0f;
  } else {
    v *= 2.0f;
  }
  if (v == 4.0f) v = 5.0f;
  return v;
}
