// A loop-free kernel whose body is declarations and one return: its per-thread wrapper issues the
// array reads of eight outputs first, then runs each output's statements on the values read.
// Reads under ?:, && or || stay where they are, as do reads whose index needs a local; a body with
// any other statement (an early return) keeps the call per output.
#include <culift/annotate.hpp>

#include <cmath>

// Layer norm's step: three reads per output, two of them the row's.
CULIFT_KERNEL float Normalize(const float* x, const float* mean, const float* var, long long n, int i, int j) {
  const float d = x[i * n + j] - mean[i];
  return d / std::sqrt(var[i] + 1e-5f);
}

// The read of a[...] goes first; b[at] (a local index) and c[j] (under ?:) stay in place.
CULIFT_KERNEL double Pick(const double* a, const double* b, const int* c, int n, int i, int j) {
  const int at = i * n + j;
  const double v = a[i * n + j];
  return v > 0.0 ? b[at] : v + c[j];
}

// Narrow elements, a 3-D kernel.
CULIFT_KERNEL int Widen(const signed char* s, const unsigned short* u, int nj, int nk, int i, int j, int k) {
  return s[(i * nj + j) * nk + k] * 3 + u[k];
}

// The read after && stays; a parameter named like a CUDA built-in is renamed in the wrapper.
CULIFT_KERNEL bool Both(const bool* warpSize, const float* q, int i) { return warpSize[i] && q[i] > 0.5f; }

// An early return: the reads after it are not made by every call, so each output calls the function.
CULIFT_KERNEL float Guarded(const float* x, int i) {
  if (i == 0) return 0.0f;
  return x[i - 1];
}
