// KernelBench's conv2d as a culift user writes it: one output per (n * K + k, oh, ow), the terms
// (c, r, s) in order under the padding test. The loop planner runs it as a convolution (an
// implicit GEMM, the per-thread entry's bits).
#pragma once

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
