// Kernels built with the test program and given host launchers (culift_add_kernels HOST_LAUNCHERS):
// every shape a launcher calls — 1-, 2- and 3-D, element-wise with a uniform, a void kernel, a
// template's instance, a namespace's function, a struct result, an array of structs, a bool.
#pragma once
#include <algorithm>
#include <cmath>
#include <culift/annotate.hpp>

// Which code ran: the test's build defines CULIFT_TRANSLATED for the translator only, so the
// kernel culift translated returns 1 and the function the app's compiler built returns 2.
CULIFT_KERNEL inline int WhichCode(int i) {
#ifdef CULIFT_TRANSLATED
  return 1 + 0 * i;
#else
  return 2 + 0 * i;
#endif
}

CULIFT_KERNEL inline float HostRowSum(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k] * 0.5f + 1.0f / (1.0f + x[i * cols + k] * x[i * cols + k]);
  return s;
}

// HostRowSum's rows again: the module gets their fused kernel, which has no launcher.
CULIFT_KERNEL inline float HostRowSumSq(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k] * x[i * cols + k];
  return s;
}

CULIFT_KERNEL inline double HostDot(const double* a, const double* b, int n, int i, int j) {
  double s = 0.0;
  for (int k = 0; k < n; ++k) s += a[i * n + k] * b[j * n + k];
  return s;
}

CULIFT_KERNEL inline float HostVoxel(const float* v, long long nj, long long nk, long long i, long long j, long long k) {
  const long long at = (i * nj + j) * nk + k;
  return v[at] * 0.25f + std::sqrt(static_cast<float>(i + 2 * j + 3 * k));
}

CULIFT_UNIFORM(slope) inline float HostLeaky(float x, float slope) { return x > 0.0f ? x : x * slope; }

CULIFT_KERNEL inline void HostAxpy(const float* x, float* y, float a, int i) { y[i] = a * x[i] + y[i]; }

template <class T>
CULIFT_KERNEL T HostClip(const T* x, T lo, T hi, int i) {
  return std::clamp(x[i], lo, hi);
}
template float HostClip<float>(const float*, float, float, int);
template int HostClip<int>(const int*, int, int, int);

namespace signal {
CULIFT_KERNEL inline float HostBlend(const float* x, const float* y, float t, int i) { return x[i] + (y[i] - x[i]) * t; }
}  // namespace signal

struct HostRange {
  float lo, hi;
};
CULIFT_KERNEL inline HostRange HostRowRange(const float* x, int cols, int i) {
  HostRange r{x[i * cols], x[i * cols]};
  for (int k = 1; k < cols; ++k) {
    r.lo = std::min(r.lo, x[i * cols + k]);
    r.hi = std::max(r.hi, x[i * cols + k]);
  }
  return r;
}

struct HostPoint {
  float x, y;
};
CULIFT_KERNEL inline float HostNorm(const HostPoint* p, int i) { return std::sqrt(p[i].x * p[i].x + p[i].y * p[i].y); }

CULIFT_KERNEL inline bool HostPositive(const float* x, int i) { return x[i] > 0.0f; }
