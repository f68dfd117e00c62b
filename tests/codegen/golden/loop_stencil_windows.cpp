// 3-D stencils whose reads walk windows: the windows in registers (<f>_win3d, each plane's window
// loaded once per thread, the body run through <f>_win on the registers, the weights loaded once),
// then the cache walk. A void kernel writing its output, and two arrays' windows.
#include <culift/annotate.hpp>

CULIFT_KERNEL float Conv3D(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];
  float s = 0.0f;
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj)
      for (int dk = -1; dk <= 1; ++dk) s += w[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)] * A[c + (di * nj + dj) * nk + dk];
  return s;
}

CULIFT_KERNEL void Smooth(const double* a, const double* b, double* out, int n, int i, int j, int k) {
  if (i < 1 || i >= n - 1 || k < 2) return;
  double s = 0.0;
  for (int d = -1; d <= 1; ++d) s += a[(i + d) * n * n + j * n + k] + 0.5 * b[(i * n + j) * n + k - 1 + d];
  out[(i * n + j) * n + k] = s;
}
