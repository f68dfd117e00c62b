// Math calls pick the float or double CUDA function by their computation type.
#include <cmath>

#include <culift/annotate.hpp>

CULIFT_KERNEL double MathFloatDouble(float x, double y, int n) {
  float a = std::sqrt(x) + sqrtf(x) + std::exp(x) + std::pow(x, 2.0f);
  double b = std::sqrt(y) + std::log(y) + std::sin(y) * std::cos(y) + std::atan2(y, 1.0);
  double c = std::sqrt(n);          // an int argument is computed in double, as <cmath> does
  float d = std::fma(x, x, 1.0f) + std::floor(x) + std::fabs(x) + std::hypot(x, 2.0f);
  return a + b + c + d + std::erf(y) + std::tgamma(y) + std::fmod(y, 3.0);
}
