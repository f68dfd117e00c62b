// 1-D kernels whose loop writes as it goes: a warp per 32 rows, one per lane, the rows staged in
// 128-byte tiles (several in flight), each lane running its row's loop in order and the written
// values stored coalesced from a shared tile. The per-thread entry's bits.
#include <culift/annotate.hpp>

#include <algorithm>

CULIFT_KERNEL void CumSum(const float* x, float* out, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) {
    s += x[i * n + k];
    out[i * n + k] = s;
  }
}

// Two written arrays, a second read one, a row that returns early, a value returned after.
CULIFT_KERNEL double RunningMax(const double* x, const double* w, double* hi, double* lo, int n, int rows, int i) {
  if (i >= rows) return 0.0;
  const long long row = (long long)i * n;
  double m = x[row], p = 1.0;
  for (int k = 0; k < n; ++k) {
    m = std::max(m, x[row + k] * w[row + k]);
    p = p * x[row + k];
    hi[row + k] = m;
    lo[row + k] = p - k;
  }
  return m + p;
}
