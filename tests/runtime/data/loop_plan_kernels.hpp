// Kernels whose loops the loop planner lifts, one per form and feature. gpu_plan_tests.cpp runs
// every entry of each against its per-thread entry and the CPU backend; planner tests check the
// plan each gets.
#pragma once

#include <algorithm>
#include <cmath>

#include <culift/annotate.hpp>

// (i, k) x (j, k): a symmetric tiled contraction.
CULIFT_KERNEL inline float Gram(const float* x, int n, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < n; ++k) acc += x[i * n + k] * x[j * n + k];
  return acc;
}

// (i, k) x (k, j) with an epilogue that reads C: a tiled contraction.
CULIFT_KERNEL inline float Gemm(const float* A, const float* B, const float* C, float alpha, float beta, int nk, int nj,
                                int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[i * nk + k] * B[k * nj + j];
  return beta * C[i * nj + j] + alpha * sum;
}

// The diagonal returned before the loop, two accumulators, a local in the loop: not symmetric.
CULIFT_KERNEL inline float Covar(const float* x, int n, int i, int j) {
  if (i == j) return 1.0f;
  float sxy = 0.0f, sx = 0.0f;
  for (int k = 0; k < n; ++k) {
    float a = x[i * n + k];
    sxy += a * x[j * n + k];
    sx += a;
  }
  return sxy - sx * 0.5f;
}

// Symmetric with the diagonal returned early and row offsets kept in locals.
CULIFT_KERNEL inline float Centered(const float* x, int n, int i, int j) {
  if (i == j) return 0.0f;
  const int ri = i * n;
  const int rj = j * n;
  float d = 0.0f;
  for (int k = 0; k < n; ++k) d += (x[ri + k] - 0.5f) * (x[rj + k] - 0.5f);
  return d;
}

// A triangle: above the diagonal C is kept, so whole blocks there skip the loop.
CULIFT_KERNEL inline float Lower(const float* A, const float* C, int n, int nj, int i, int j) {
  if (j > i) return C[i * nj + j];
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += A[i * n + k] * A[j * n + k];
  return s;
}

// A void kernel writing C, operands stored column-major (k, i) and (k, j).
CULIFT_KERNEL inline void Syrk(float* C, const float* A, float alpha, float beta, int ldc, int m, int n, int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += A[k * m + i] * A[k * m + j];
  C[i * ldc + j] = beta * C[i * ldc + j] + alpha * sum;
}

// A read backwards along k, and one whose row along k is not affine in k: whole tiles step the
// first's addresses from one element to the next and copy the second's element by element.
CULIFT_KERNEL inline float Reversed(const float* A, const float* B, int nk, int nj, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < nk; ++k) s += A[i * nk + (nk - 1 - k)] * B[((k * 7) % nk) * nj + j];
  return s;
}

// k from 1 to n inclusive, double accumulation of float products, a (k, j) operand of doubles.
CULIFT_KERNEL inline double Shifted(const float* a, const double* w, int ld, int n, int i, int j) {
  double s = 0.0;
  for (int k = 1; k <= n; ++k) s += static_cast<double>(a[i * ld + (k - 1)]) * w[(k - 1) * ld + j];
  return s;
}

// Statements before the loop that every output runs alike (a parameter assigned, a helper of
// scalars, a product's start): the tiled entries run them once per thread.
inline double ScaleOf(double a, long long b) { return a * 0.5 + static_cast<double>(b % 7); }

CULIFT_KERNEL inline double UniformProduct(const float* x, const float* y, double scale, long long shift, int n, int i,
                                           int j) {
  shift <<= 3;
  const double s = ScaleOf(scale, shift);
  double p = s - 1.0;
  for (int k = 0; k < n; ++k) p = p * (x[i * n + k] * y[j * n + k] * 0.25) + s;
  return p * s;
}

// alpha inside the loop, times A: the tiles stage alpha * A's elements (every output multiplies
// them so) and read the products.
CULIFT_KERNEL inline float ScaledGemm(const float* A, const float* B, float alpha, int nk, int nj, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < nk; ++k) s += alpha * A[i * nk + k] * B[k * nj + j];
  return s;
}

// syr2k's lower triangle: four staged arrays (dynamic shared memory), the upper triangle returns
// before the loop.
CULIFT_KERNEL inline float Syr2k(const float* A, const float* B, const float* C, float alpha, int nk, int n, int i,
                                 int j) {
  if (j > i) return C[i * n + j];
  float s = 0.0f;
  for (int k = 0; k < nk; ++k) s += A[j * nk + k] * alpha * B[i * nk + k] + B[j * nk + k] * alpha * A[i * nk + k];
  return 0.5f * C[i * n + j] + s;
}

// Integer min and max accumulators and a 64-bit counter.
CULIFT_KERNEL inline int Spread(const int* a, const int* b, int n, int i, int j) {
  int lo = 1000000;
  int hi = -1000000;
  for (long long k = 0; k < n; ++k) {
    int v = a[i * n + k] - b[j * n + k];
    lo = v < lo ? v : lo;
    hi = std::max(hi, v);
  }
  return hi - lo;
}

// Row reductions: a sum, a sum of squares, a matrix-vector product in double, an early
// return, two staged arrays.
CULIFT_KERNEL inline float RowSum(const float* x, int n, int i) {
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += x[i * n + k];
  return sum;
}

CULIFT_KERNEL inline float RowSumSq(const float* x, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) {
    float v = x[i * n + k];
    s += v * v;
  }
  return s;
}

CULIFT_KERNEL inline double MatVec(const double* A, const double* v, int n, int i) {
  double s = 0.0;
  for (int k = 0; k < n; ++k) s += A[i * n + k] * v[k];
  return s;
}

// PolyBench's gesummv: two matrices and a vector per row, in double. Two staged arrays of 32 rows
// and the vector: the 32-row entry's slices take dynamic shared memory (above 48 KiB).
CULIFT_KERNEL inline double Gesummv(const double* A, const double* B, const double* x, double alpha, double beta, int n,
                                    int i) {
  double tmp = 0.0, y = 0.0;
  for (int k = 0; k < n; ++k) {
    tmp += A[i * n + k] * x[k];
    y += B[i * n + k] * x[k];
  }
  return alpha * tmp + beta * y;
}

CULIFT_KERNEL inline float RowGap(const float* a, const float* b, int n, int i) {
  if (i % 3 == 2) return -1.0f;
  float worst = 0.0f;
  for (int k = 0; k < n; ++k) worst = std::max(worst, std::fabs(a[i * n + k] - b[i * n + k]));
  return worst;
}

// Reassociating row reductions: a sum, a matrix-vector product in double, and two sums with a
// conditional term, an early return and statements after the loop.
CULIFT_KERNEL_REASSOCIATE inline float RowTotal(const float* x, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[i * n + k];
  return s;
}

CULIFT_KERNEL_REASSOCIATE inline double MatVecSum(const double* A, const double* v, int n, int i) {
  double s = 0.0;
  for (int k = 0; k < n; ++k) s = s + A[(long long)i * n + k] * v[k];
  return s;
}

CULIFT_KERNEL_REASSOCIATE CULIFT_KERNEL_INDEX(r) inline float MomentGap(const float* x, const float* y, int n, int r) {
  if (r % 5 == 3) return -1.0f;
  float above = 0.0f, below = 0.0f;
  for (int k = 0; k < n; ++k) {
    const float d = x[r * n + k] - y[r * n + k];
    if (d > 0.0f) above += d;
    else below -= d * d;
  }
  return above + 0.5f * below;
}

// Rows that repeat every 16 outputs: a launch of few rows takes the split-row entry, one of as many
// rows as the device has warps the warp per row, over the same values (row r is row r % 16).
CULIFT_KERNEL_REASSOCIATE inline float RepeatedRows(const float* x, long long n, int i) {
  float s = 0.0f;
  for (long long k = 0; k < n; ++k) s += x[(i % 16) * n + k];
  return s;
}

// Column reductions: a 2-D column sum (x.sum(1) of (ni, nk, nj)), a 1-D one, RMS norm's sum of
// squares over f for i = b * S + s (a division and a square root after the loop), a weighted
// column in double with its weights read at k alone, an integer max with an early return, and a
// mean written through an array.
CULIFT_KERNEL inline float ColSum(const float* x, int d1, int d2, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < d1; ++k) s += x[(i * d1 + k) * d2 + j];
  return s;
}

CULIFT_KERNEL inline float ColSum1(const float* x, int rows, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[k * rows + i];
  return s;
}

CULIFT_KERNEL inline float RmsCol(const float* x, int F, int S, float eps, int i) {
  const int b = i / S;
  const int s = i % S;
  float sum = 0.0f;
  for (int f = 0; f < F; ++f) {
    const float v = x[(b * F + f) * S + s];
    sum += v * v;
  }
  return std::sqrt(sum / (float)F + eps);
}

CULIFT_KERNEL_INDEX(b, s) inline double WeightedCol(const double* x, const double* w, int F, int S, int b, int s) {
  double acc = 0.0;
  for (int f = 0; f < F; ++f) acc += w[f] * x[(b * F + f) * S + s];
  return acc;
}

CULIFT_KERNEL inline int ColMax(const int* x, int rows, int n, int i) {
  if (i % 5 == 3) return -7;
  int m = -2147483647 - 1;
  for (int k = 0; k < n; ++k) m = std::max(m, x[k * rows + i]);
  return m;
}

CULIFT_KERNEL inline void ColMean(float* y, const float* x, int d1, int d2, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < d1; ++k) s += x[(i * d1 + k) * d2 + j];
  y[i * d2 + j] = d1 > 0 ? s / (float)d1 : 0.0f;
}

// 3-D, per batch b: (b, i, k) x (b, k, j) with an epilogue that reads C of the batch: a batched
// tiled contraction.
CULIFT_KERNEL_INDEX(b, i, j)
inline float BatchedGemm(const float* A, const float* B, const float* C, float alpha, int m, int nk, int n, int b,
                         int i, int j) {
  float sum = 0.0f;
  for (int k = 0; k < nk; ++k) sum += A[(b * m + i) * nk + k] * B[(b * nk + k) * n + j];
  return alpha * sum + C[(b * m + i) * n + j];
}

// doitgen: (r, q, s) x (s, p), C4 the same for every batch r.
CULIFT_KERNEL_INDEX(r, q, p)
inline float Doitgen(const float* A, const float* C4, int nq, int np, int ns, int r, int q, int p) {
  float sum = 0.0f;
  for (int s = 0; s < ns; ++s) sum += A[(r * nq + q) * ns + s] * C4[s * np + p];
  return sum;
}

// Per batch, the outputs above the diagonal returned before the loop, doubles and row offsets in
// locals: a batched tiled contraction whose blocks above the diagonal skip the loop.
CULIFT_KERNEL_INDEX(b, i, j)
inline double BatchedLower(const double* x, const float* y, int m, int nk, int b, int i, int j) {
  if (j > i) return b;
  const int ri = (b * m + i) * nk, rj = j * nk;
  double acc = 0.0;
  for (int k = 0; k < nk; ++k) acc += x[ri + k] * y[rj + k];
  return acc;
}
