// Classification functions: isnan, isinf, isfinite, signbit on float and double.
#include <cmath>

#include <culift/annotate.hpp>

CULIFT_KERNEL int ClassifyFns(float x, double y) {
  int r = 0;
  if (std::isnan(x)) r |= 1;
  if (std::isinf(y)) r |= 2;
  if (std::isfinite(x)) r |= 4;
  if (std::signbit(y)) r |= 8;
  return r;
}
