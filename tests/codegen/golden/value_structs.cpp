// Value structs as locals: aggregate, designated and default member initialization, nested
// structs and array fields, copies and assignment (each a variable per field, named after it).
#include <culift/annotate.hpp>

struct Range {
  float lo = 0.0f, hi = 1.0f;
};
struct Window {
  Range x, y;
  int weights[3] = {1, 2, 1};
};

CULIFT_KERNEL float ValueStructs(const float* v, int i) {
  Window w{.x = {v[i], v[i] + 1.0f}};
  Range r;
  r = w.x;
  r.hi += static_cast<float>(w.weights[1]);
  Window copy = w;
  copy.y = Range{r.hi, r.lo};
  copy.weights[2] = 5;
  return copy.y.lo - copy.y.hi + r.lo + static_cast<float>(copy.weights[2] - w.weights[2]);
}
