// CULIFT_UNIFORM: scalars of an element-wise kernel passed once, the same for every element,
// beside the element inputs read per element.
#include <culift/annotate.hpp>

CULIFT_UNIFORM(negativeSlope) float LeakyRelu(float x, float negativeSlope) {
  return x > 0.0f ? x : x * negativeSlope;
}

CULIFT_KERNEL CULIFT_UNIFORM(a, b) float Axpby(float a, float x, float b, float y) { return a * x + b * y; }

CULIFT_UNIFORM(scale) CULIFT_UNIFORM(shift) double Affine(double scale, int n, double shift) {
  return scale * n + shift;
}
