// std::min, std::max, std::clamp and std::abs with the exact C++ definitions.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <culift/annotate.hpp>

CULIFT_KERNEL float MinMaxClampAbs(float x, int n, long long w, double d) {
  float lo = std::min(x, 0.0f);
  float hi = std::max(x, 1.0f);
  int c = std::clamp(n, -5, 5);
  long long a = std::abs(w);
  int ai = std::abs(n);
  double ad = std::abs(d);
  float af = std::abs(x);
  return lo + hi + c + a + ai + ad + af + std::fmin(x, 2.0f) + std::fmax(x, -2.0f);
}
