// Kernels for the stencil plans' GPU test (gpu_plan_tests.cpp): each entry against the per-thread
// entry of the same kernel, bit for bit. Borders in every form the plans take: a border that
// returns the input, an interior test, a pure test, none (a padded array),
// window loops, asymmetric halos, integers and doubles.
#include <culift/annotate.hpp>

CULIFT_KERNEL float Jacobi(const float* A, int rows, int cols, int i, int j) {
  if (i == 0 || i == rows - 1 || j == 0 || j == cols - 1) return A[i * cols + j];
  return 0.2f * (A[i * cols + j] + A[i * cols + j - 1] + A[i * cols + 1 + j] + A[(1 + i) * cols + j] +
                 A[(i - 1) * cols + j]);
}

// Interior outputs only (the others keep y's values); a 3 x 3 window.
CULIFT_KERNEL void Box(const float* x, float* y, int rows, int cols, int i, int j) {
  if (i >= 1 && i < rows - 1 && j >= 1 && j < cols - 1) {
    float s = 0.0f;
    for (int di = -1; di <= 1; ++di)
      for (int dj = -1; dj <= 1; ++dj) s += x[(i + di) * cols + j + dj] * (float)(di + 2 * dj + 5);
    y[i * cols + j] = s;
  }
}

// A launch over the interior of a (rows + 2) x (cols + 2) array: reads at offsets 0..2 from the
// corner, every read in the array, those of the halo outside the launch too.
CULIFT_KERNEL float Padded(const float* A, int cols, int i, int j) {
  const int w = cols + 2;
  return A[(i + 1) * w + j + 1] * 4.0f - A[i * w + j + 1] - A[(i + 2) * w + j + 1] - A[(i + 1) * w + j] -
         A[(i + 1) * w + j + 2];
}

// Columns j and j + 2 of an array `cols` wide that may be narrower than the launch: the border
// test is what keeps the reads in the array, and the copy evaluates it.
CULIFT_KERNEL float Narrow(const float* x, int cols, int i, int j) {
  if (j >= cols - 2) return -1.0f;
  return x[i * cols + j + 2] - x[i * cols + j];
}

CULIFT_KERNEL int Cross(const int* a, int rows, int cols, int i, int j) {
  if (i == 0 || j == 0 || i == rows - 1 || j == cols - 1) return 0;
  return 4 * a[i * cols + j] - a[(i - 1) * cols + j] - a[(i + 1) * cols + j] - a[i * cols + j - 1] -
         a[i * cols + j + 1];
}

// heat-3d's step (PolyBench), the border copied.
CULIFT_KERNEL void Heat(const double* A, double* B, int ni, int nj, int nk, int i, int j, int k) {
  if (i >= 1 && i < ni - 1 && j >= 1 && j < nj - 1 && k >= 1 && k < nk - 1) {
    B[(i * nj + j) * nk + k] = 0.125 * (A[((i + 1) * nj + j) * nk + k] - 2.0 * A[(i * nj + j) * nk + k] +
                                        A[((i - 1) * nj + j) * nk + k]) +
                               0.125 * (A[(i * nj + j + 1) * nk + k] - 2.0 * A[(i * nj + j) * nk + k] +
                                        A[(i * nj + j - 1) * nk + k]) +
                               0.125 * (A[(i * nj + j) * nk + k + 1] - 2.0 * A[(i * nj + j) * nk + k] +
                                        A[(i * nj + j) * nk + k - 1]) +
                               A[(i * nj + j) * nk + k];
  } else {
    B[(i * nj + j) * nk + k] = A[(i * nj + j) * nk + k];
  }
}

// The 27-point convolution, weights from an array, the border returning the input.
CULIFT_KERNEL float Conv(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];
  float s = 0.0f;
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj)
      for (int dk = -1; dk <= 1; ++dk) s += w[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)] * A[c + (di * nj + dj) * nk + dk];
  return s;
}

// Two values carried from plane to plane (a weighted sum and a plain one), the border returning
// the plane below's element one column on: streamed with the copies one plane ahead (the guard's
// plane is two before the loop's last), that guard's elements loaded one an output (not a 16-byte
// group of the tile's row), the output's own for the first guard in one 16-byte load.
CULIFT_KERNEL float ConvPair(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i == 0) return A[c];
  if (i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c - nj * nk + 1];
  float s = 0.0f, t = 1.0f;
  for (int di = -1; di <= 1; ++di)
    for (int dj = -1; dj <= 1; ++dj)
      for (int dk = -1; dk <= 1; ++dk) {
        const float a = A[c + (di * nj + dj) * nk + dk];
        s += w[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)] * a;
        t = t * 0.5f + a;
      }
  const float m = s - 0.25f * t;
  return m;
}

// Planes i + 1 and i + 2 alone in the loop (a halo above), the border's element read outside it.
CULIFT_KERNEL float Upward(const float* A, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i + 2 >= ni || k < 1 || k + 1 >= nk) return A[c];
  float s = 2.0f;
  for (int di = 1; di <= 2; ++di)
    for (int dk = -1; dk <= 1; ++dk) s = s * 0.75f + (float)(di * 3 + dk) * A[c + di * nj * nk + dk];
  return s;
}

// The element at the output read before the loop (not in a guard): the windows in a ring of
// register planes, not streamed.
CULIFT_KERNEL float Centred3D(const float* A, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i == 0 || i == ni - 1 || k == 0 || k == nk - 1) return A[c];
  const float m = A[c];
  float s = 0.0f;
  for (int di = -1; di <= 1; ++di)
    for (int dk = -1; dk <= 1; ++dk) s += (A[c + di * nj * nk + dk] - m) * (float)(di + 2 * dk);
  return s;
}

// Planes i + 1 and i + 2 only (a halo above, none below), two arrays staged.
CULIFT_KERNEL float Ahead(const float* A, const float* B, int ni, int nj, int nk, int i, int j, int k) {
  if (i >= ni - 2) return 0.0f;
  return A[((i + 2) * nj + j) * nk + k] - A[((i + 1) * nj + j) * nk + k] +
         (B[((i + 1) * nj + j) * nk + k] - B[((i + 1) * nj + j) * nk + k + 1]) * 0.5f;
}

// Windows of two arrays with asymmetric halos (planes i .. i + 2 and columns k - 2 .. k + 1 of A,
// rows j - 1 .. j of B), in doubles; the outputs whose windows would leave the arrays return B's
// element.
CULIFT_KERNEL double Skew(const double* A, const double* B, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i + 2 >= ni || j < 1 || k < 2 || k + 1 >= nk) return B[c];
  double s = 0.0;
  for (int di = 0; di <= 2; ++di)
    for (int dk = -2; dk <= 1; ++dk) s += A[c + di * nj * nk + dk] * (double)(3 * di + dk);
  for (int dj = -1; dj <= 0; ++dj) s -= 0.5 * B[c + dj * nk];
  return s;
}

// Skew in floats: four outputs a thread take the planes through shared memory (two arrays, a
// halo of columns -2 .. +1 and of rows -1 .. 0).
CULIFT_KERNEL float SkewF(const float* A, const float* B, int ni, int nj, int nk, int i, int j, int k) {
  const int c = (i * nj + j) * nk + k;
  if (i + 2 >= ni || j < 1 || k < 2 || k + 1 >= nk) return B[c];
  float s = 0.0f;
  for (int di = 0; di <= 2; ++di)
    for (int dk = -2; dk <= 1; ++dk) s += A[c + di * nj * nk + dk] * (float)(3 * di + dk);
  for (int dj = -1; dj <= 0; ++dj) s -= 0.5f * B[c + dj * nk];
  return s;
}
