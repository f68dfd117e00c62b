// Masked broadcast of row 0: out[b][d] = mask[d] ? x[0][d] : x[b][d].
// A 2-D function over rows i and columns j; culift lifts it to a 2-D kernel.
#pragma once

#include <culift/annotate.hpp>

CULIFT_KERNEL inline float MaskedBroadcastRow0(const float* x, const bool* mask, int cols, int i, int j) {
  return mask[j] ? x[j] : x[i * cols + j];
}
