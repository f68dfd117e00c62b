// std::min and std::max of initializer lists and std::minmax, lowered to culift_min/culift_max
// (std::min(a, b) is (b < a) ? b : a, std::max(a, b) is (a < b) ? b : a): a left fold for min
// and max, libstdc++'s pairwise minmax_element for minmax (first smallest, last largest).
// Elements with side effects go through temporaries, in order.
#include <algorithm>

#include <culift/annotate.hpp>

struct Range {
  float lo, hi;
};

CULIFT_KERNEL Range Bounds(float a, float b, float c) { return {std::min({a, b, c}), std::max({a, b, c})}; }

CULIFT_KERNEL int Smallest(int a, int b, int c, int d) { return std::min({a, b, c, d}); }

CULIFT_KERNEL double Spread(double a, double b, double c) {
  auto [lo, hi] = std::minmax({a, b, c});
  return hi - lo;
}

CULIFT_KERNEL float Middle(float a, float b, float c, float d) {
  const auto p = std::minmax({a, b, c, d});
  return 0.5f * (p.first + p.second);
}

CULIFT_KERNEL float Ordered(float a, float b) {
  auto p = std::minmax(a, b);
  a = 0.0f;
  return p.second - p.first;
}

CULIFT_KERNEL int Counted(int a, int b) {
  int n = a;
  const int m = std::max({n++, n, b});
  return m + std::minmax(n, b).second;
}
