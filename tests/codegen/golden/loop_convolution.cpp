// Convolutions: KernelBench's conv2d as a culift user writes it (a 3-D kernel over (n * K + k, oh,
// ow), the terms (c, r, s) under the padding test: a flag per position and term), and a valid
// convolution of one image in double (no test, the channel the first index itself).
#include <culift/annotate.hpp>

CULIFT_KERNEL_INDEX(nk, oh, ow)
float Conv2D(const float* x, const float* w, int C, int H, int W, int K, int R, int S, int stride, int pad, int nk,
             int oh, int ow) {
  const int n = nk / K, k = nk % K;
  float acc = 0.0f;
  for (int c = 0; c < C; ++c)
    for (int r = 0; r < R; ++r)
      for (int s = 0; s < S; ++s) {
        const int y = oh * stride - pad + r, xx = ow * stride - pad + s;
        if (y >= 0 && y < H && xx >= 0 && xx < W)
          acc += x[((n * C + c) * H + y) * W + xx] * w[((k * C + c) * R + r) * S + s];
      }
  return acc;
}

CULIFT_KERNEL_INDEX(k, oh, ow)
double Valid(const double* x, const double* w, int C, int H, int W, int R, int S, int k, int oh, int ow) {
  double acc = 0.0;
  for (int c = 0; c < C; ++c)
    for (int r = 0; r < R; ++r)
      for (int s = 0; s < S; ++s) acc += w[((k * C + c) * R + r) * S + s] * x[(c * H + oh + r) * W + ow + s];
  return acc * 0.5;
}

// The input's row depends on the counter r times the position's parity: no base per position plus
// offset per term, so the entry gathers the input at its index as written (the filter still at a
// base plus an offset).
CULIFT_KERNEL_INDEX(k, oh, ow)
float WarpedConv(const float* x, const float* w, int C, int H, int W, int R, int S, int k, int oh, int ow) {
  float acc = 0.0f;
  for (int c = 0; c < C; ++c)
    for (int r = 0; r < R; ++r)
      for (int s = 0; s < S; ++s) acc += w[((k * C + c) * R + r) * S + s] * x[(c * H + oh + r * (1 + oh % 2)) * W + ow + s];
  return acc;
}
