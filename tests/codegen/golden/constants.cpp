// The constants <cmath> and <limits> spell as calls (INFINITY, NAN, HUGE_VAL(F),
// std::numeric_limits<T>::...) are literals with their exact bits.
#include <culift/annotate.hpp>

#include <cmath>
#include <limits>

CULIFT_KERNEL float FloatConstants(float x) {
  float best = -INFINITY;
  float worst = HUGE_VALF;
  float quiet = NAN;
  float low = std::numeric_limits<float>::lowest();
  float high = std::numeric_limits<float>::max();
  float tiny = std::numeric_limits<float>::min();
  float denorm = std::numeric_limits<float>::denorm_min();
  float eps = std::numeric_limits<float>::epsilon();
  float inf = -std::numeric_limits<float>::infinity();
  float qnan = std::numeric_limits<float>::quiet_NaN();
  int digits = std::numeric_limits<float>::digits;
  if (x != x) return quiet + qnan;
  return std::fmax(best, inf) + worst * 0.0f + low + high + tiny + denorm + eps + (float)digits + x;
}

CULIFT_KERNEL double DoubleConstants(double x) {
  double huge = HUGE_VAL;
  double lowest = std::numeric_limits<double>::lowest();
  double eps = std::numeric_limits<double>::epsilon();
  double denorm = std::numeric_limits<double>::denorm_min();
  double nan = std::numeric_limits<double>::quiet_NaN();
  if (x > huge) return nan;
  return lowest + eps + denorm + x;
}

CULIFT_KERNEL long long IntegerLimits(long long x) {
  long long a = std::numeric_limits<int>::max();
  long long b = std::numeric_limits<int>::min();
  long long c = std::numeric_limits<long long>::lowest();
  unsigned long long d = std::numeric_limits<unsigned long long>::max();
  long long e = std::numeric_limits<unsigned char>::max() + std::numeric_limits<signed char>::min();
  long long f = std::numeric_limits<short>::max() + std::numeric_limits<unsigned short>::max();
  bool g = std::numeric_limits<bool>::max();
  int digits = std::numeric_limits<unsigned>::digits + std::numeric_limits<int>::digits10;
  return (x > c ? a + b : (long long)(d >> 1)) + e + f + g + digits;
}
