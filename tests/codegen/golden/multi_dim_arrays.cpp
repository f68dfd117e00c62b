// Multi-dimensional arrays: 2-D and 3-D locals with brace initializers (rows given in part are
// zero-filled), a[r][c] read and written, range for over rows, std::array of std::array, and the
// PolyBench form of a kernel parameter (const float A[][N], float (*C)[N]): one flat row-major
// array each.
#include <array>
#include <culift/annotate.hpp>

#define N 64

CULIFT_KERNEL float Stencil(const float* x, int i) {
  float w[3][3] = {{0.0625f, 0.125f, 0.0625f}, {0.125f, 0.25f}, {0.0625f}};
  w[2][1] = 0.125f;
  w[1][2] = w[2][1];
  int cube[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};
  std::array<std::array<float, 2>, 2> g = {{{1.0f, 2.0f}, {3.0f, 4.0f}}};
  float s = 0.0f;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) s += w[r][c] * x[i + r + c];
  for (const auto& plane : cube)  // rows bound by reference: counters named by depth
    for (const auto& row : plane) s += static_cast<float>(row[0] * row[1]);
  for (auto& row : g)
    for (float& v : row) v += s;
  return s + static_cast<float>(cube[1][i % 2][1]) + g[1][0];
}

CULIFT_KERNEL void Gemm(int ni, float alpha, const float A[][N], const float (*B)[N], float C[][N], int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < N; ++k) acc += A[i][k] * B[k][j];
  C[i][j] = alpha * acc;
}
