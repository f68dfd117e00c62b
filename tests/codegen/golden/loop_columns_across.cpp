// Column reductions shared by a middle axis: f(b, m, s) whose loop does not use m runs the loop
// once per column and the statements after it for every m; the elements the statements after the
// loop read again (at m in place of the counter) come from a stash in shared memory.
#include <cmath>

#include <culift/annotate.hpp>

// RMS norm in one function: the stash serves x[(b * F + f) * S + s], read eight f at a time.
CULIFT_KERNEL_INDEX(b, f, s)
float RmsNormOne(const float* x, int F, int S, float eps, int b, int f, int s) {
  float sum = 0.0f;
  for (int g = 0; g < F; ++g) {
    const float v = x[(b * F + g) * S + s];
    sum += v * v;
  }
  return x[(b * F + f) * S + s] / std::sqrt(sum / (float)F + eps);
}

// A loop from 1: the stash holds iterations from k = 1, so m = 0 reads memory.
CULIFT_KERNEL_INDEX(b, m, c) float ColumnShift(const float* x, int M, int C, int b, int m, int c) {
  float best = x[b * M * C + c];
  for (int k = 1; k < M; ++k) best = std::fmax(best, x[(b * M + k) * C + c]);
  return x[(b * M + m) * C + c] - best;
}

// A return under if after the loop: one m after the other, reading memory.
CULIFT_KERNEL_INDEX(b, m, c)
double CenteredSq(const double* x, const double* w, int M, int C, int b, int m, int c) {
  const int base = b * M * C + c;
  double s = 0.0;
  for (int k = 0; k < M; ++k) s += w[k] * x[base + k * C];
  const double d = x[base + m * C] - s / M;
  if (d < 0.0) return -d;
  return d * d;
}

// The element read twice after the loop: one stash serves both reads.
CULIFT_KERNEL_INDEX(b, f, s) float SquareOverSum(const float* x, int F, int S, int b, int f, int s) {
  float sum = 0.0f;
  for (int g = 0; g < F; ++g) sum += x[(b * F + g) * S + s];
  return x[(b * F + f) * S + s] * x[(b * F + f) * S + s] / sum;
}
