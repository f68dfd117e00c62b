// Pearson correlation and Euclidean distance between the rows of a matrix, written as plain
// scalar C++ functions. The same header compiles natively (any C++ compiler) and is lifted by
// culift into CUDA kernels:
//
//   RowSum, RowSumSq            parameter i        -> 1-D kernels over the rows
//   GramDot, CorrelationCell,
//   DistanceCell                parameters i and j -> 2-D kernels over row pairs
//   PearsonClamp                scalars only       -> element-wise kernel
//
// With sum_i = Σx, sq_i = Σx², dot_ij = Σ x_ik·x_jk and n = cols:
//   mean_i  = sum_i / n
//   var_i   = sq_i - n * mean_i²
//   corr_ij = (dot_ij - n * mean_i * mean_j) / sqrt(var_i * var_j)
//   dist_ij = sqrt(sq_i + sq_j - 2 * dot_ij)
// The diagonal is 1 (correlation) and 0 (distance) exactly; computing it would subtract two
// nearly equal large numbers in single precision and amplify rounding error.
#pragma once

#include <cmath>

#include <culift/annotate.hpp>

// Sum of row i of the row-major matrix x (cols columns).
CULIFT_KERNEL inline float RowSum(const float* x, int cols, int i) {
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) {
    sum += x[i * cols + k];
  }
  return sum;
}

// Sum of squares of row i.
CULIFT_KERNEL inline float RowSumSq(const float* x, int cols, int i) {
  float sumSq = 0.0f;
  for (int k = 0; k < cols; ++k) {
    float v = x[i * cols + k];
    sumSq += v * v;
  }
  return sumSq;
}

// Dot product of rows i and j: one cell of the Gram matrix x·xᵀ.
CULIFT_KERNEL inline float GramDot(const float* x, int cols, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < cols; ++k) {
    acc += x[i * cols + k] * x[j * cols + k];
  }
  return acc;
}

// Pearson correlation of rows i and j from the Gram matrix and the row statistics.
CULIFT_KERNEL inline float CorrelationCell(const float* dot, const float* rowSum, const float* rowSumSq, int rows,
                                           int cols, int i, int j) {
  if (i == j) {
    return 1.0f;
  }

  float n = static_cast<float>(cols);
  float meanI = rowSum[i] / n;
  float meanJ = rowSum[j] / n;
  float varI = rowSumSq[i] - n * meanI * meanI;
  float varJ = rowSumSq[j] - n * meanJ * meanJ;
  float d = dot[i * rows + j];
  float cov = d - n * meanI * meanJ;
  float denom = std::sqrt(std::fmax(varI, 0.0f)) * std::sqrt(std::fmax(varJ, 0.0f));
  float c;

  if (denom > 1.0e-12f) {
    c = cov / denom;
  } else {
    c = 0.0f;
  }

  return std::fmin(1.0f, std::fmax(-1.0f, c));
}

// Euclidean distance between rows i and j from the Gram matrix and the row square sums.
CULIFT_KERNEL inline float DistanceCell(const float* dot, const float* rowSumSq, int rows, int i, int j) {
  if (i == j) {
    return 0.0f;
  }

  float d = dot[i * rows + j];
  float d2 = std::fmax(rowSumSq[i] + rowSumSq[j] - 2.0f * d, 0.0f);

  return std::sqrt(d2);
}

// Correlation from a covariance and a denominator, clamped to [-1, 1]; 0 when the
// denominator vanishes.
CULIFT_KERNEL inline float PearsonClamp(float cov, float denom) {
  float c;

  if (denom > 1.0e-12f) {
    c = cov / denom;
  } else {
    c = 0.0f;
  }

  return std::fmin(1.0f, std::fmax(-1.0f, c));
}
