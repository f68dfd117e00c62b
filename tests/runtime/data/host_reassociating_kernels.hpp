// A module with a reassociating kernel beside a plain one: the plain one's launches take its host
// launcher, the reassociating one's plan order comes from the compiled backend.
#pragma once
#include <culift/annotate.hpp>

CULIFT_KERNEL_REASSOCIATE inline float HostRowTotal(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k];
  return s;
}

CULIFT_KERNEL inline float HostScale(const float* x, float a, int i) { return x[i] * a; }
