// No index, arrays beside the scalars: element-wise over the scalars, each array the same for
// every element (a coefficient or lookup table), passed as it is.
#include <culift/annotate.hpp>

// Horner's rule over a coefficient table: a loop per element, one element per thread; the
// degree, a scalar, is read per element.
CULIFT_KERNEL float Horner(const float* coeff, int degree, float x) {
  float acc = 0.f;
  for (int k = 0; k <= degree; ++k) acc = acc * x + coeff[k];
  return acc;
}

// The degree the same for every element: passed once, by value.
CULIFT_KERNEL CULIFT_UNIFORM(degree) double HornerUniform(const double* coeff, int degree, double x) {
  double acc = 0.0;
  for (int k = 0; k <= degree; ++k) acc = acc * x + coeff[k];
  return acc;
}

// A lookup table with linear interpolation: loop-free, so four elements per thread, read and
// written as one vector per element array; the table is not part of the vectors.
CULIFT_KERNEL float Lerp8(const float* table, float t) {
  const float s = t * 7.0f;
  int k = (int)s;
  if (k < 0) k = 0;
  if (k > 6) k = 6;
  return table[k] + (s - (float)k) * (table[k + 1] - table[k]);
}
