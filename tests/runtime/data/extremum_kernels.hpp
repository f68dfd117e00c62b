// Rows that keep a minimum, a maximum or where one is, in the forms the min/max row reduction
// takes in exact order (docs/loop-plans.md#minmax-and-argmax-rows). Compiled natively as well:
// the CPU backend's launches are compared with these functions called row by row.
#pragma once

#include <culift/annotate.hpp>

#include <algorithm>
#include <cmath>

CULIFT_KERNEL inline float RowMax(const float* x, int n, int i) {
  float m = x[(long long)i * n];
  for (int k = 1; k < n; ++k) m = std::max(m, x[(long long)i * n + k]);
  return m;
}

CULIFT_KERNEL inline float RowMaxTernary(const float* x, int n, int i) {
  float m = -INFINITY;
  for (int k = 0; k < n; ++k) m = x[i * n + k] > m ? x[i * n + k] : m;
  return m;
}

CULIFT_KERNEL inline float RowMinLast(const float* x, int n, int i) {
  float m = x[i * n];
  for (int k = 0; k < n; ++k) {
    const float v = x[i * n + k];
    if (m >= v) m = v;
  }
  return m;
}

CULIFT_KERNEL inline double RowFmax(const double* x, int n, int i) {
  double m = NAN;
  for (int k = 0; k < n; ++k) m = std::fmax(m, x[i * n + k]);
  return m;
}

CULIFT_KERNEL inline int ArgMax(const float* x, int n, int i) {
  float best = -INFINITY;
  int arg = -1;
  for (int k = 0; k < n; ++k) {
    const float v = x[i * n + k];
    if (v > best) {
      best = v;
      arg = k;
    }
  }
  return arg;
}

CULIFT_KERNEL inline int ArgMinLast(const double* x, int n, int i) {
  double best = x[i * n];
  int arg = 0;
  for (int k = 0; k < n; ++k) {
    if (x[i * n + k] <= best) {
      best = x[i * n + k];
      arg = k;
    }
  }
  return arg;
}

CULIFT_KERNEL inline int IntArgMax(const int* x, int n, int i) {
  int best = x[i * n];
  int arg = 0;
  for (int k = 1; k < n; ++k)
    if (x[i * n + k] > best) {
      best = x[i * n + k];
      arg = k;
    }
  return arg * 4096 + best;
}

CULIFT_KERNEL inline short ShortMaxLater(const short* x, int n, int i) {
  short m = 0;
  for (int k = 0; k < n; ++k) m = std::max(x[i * n + k], m);
  return m;
}

CULIFT_KERNEL inline float RowRange(const float* x, int n, int i) {
  float lo = INFINITY, hi = -INFINITY;
  for (int k = 0; k < n; ++k) {
    lo = std::min(lo, x[i * n + k]);
    if (hi <= x[i * n + k]) hi = x[i * n + k];
  }
  return hi - lo;
}
