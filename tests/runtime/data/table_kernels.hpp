// Element-wise kernels that read a table the same for every element (coefficients, a lookup
// table) beside their per-element scalars: compiled natively by the runtime tests and
// translated by culift, then launched on the CPU backend and the GPU.
#pragma once

#include <culift/annotate.hpp>

// Horner's rule: coeff[0] is the highest power; the degree is read per element.
CULIFT_KERNEL inline float Horner(const float* coeff, int degree, float x) {
  float acc = 0.f;
  for (int k = 0; k <= degree; ++k) acc = acc * x + coeff[k];
  return acc;
}

// The same in double with the degree uniform (one value for every element).
CULIFT_KERNEL CULIFT_UNIFORM(degree) inline double HornerUniform(const double* coeff, int degree, double x) {
  double acc = 0.0;
  for (int k = 0; k <= degree; ++k) acc = acc * x + coeff[k];
  return acc;
}

// Piecewise-linear lookup in an 8-entry table over [0, 1): loop-free (four elements per thread,
// as vectors, on the GPU), the table read at an index computed per element.
CULIFT_KERNEL inline float Lerp8(const float* table, float t) {
  const float s = t * 7.0f;
  int k = (int)s;
  if (k < 0) k = 0;
  if (k > 6) k = 6;
  return table[k] + (s - (float)k) * (table[k + 1] - table[k]);
}
