// A tiled contraction whose statements before the loop give every output the same values: a
// scale computed from scalar parameters through a helper, a parameter assigned, a product's
// starting value. The tiled entries run them once per thread, outside the register tile (the
// device assembler got a register tile wrong that ran such statements once per output behind
// each output's range test); each output's product starts from their value, and the scale the
// loop only reads stays one register.
#include <culift/annotate.hpp>

inline float Mix(float a, int b) { return a * 0.5f + static_cast<float>(b); }

CULIFT_KERNEL float ScaledProduct(const float* x, const float* y, float scale, int shift, int nk, int i, int j) {
  shift <<= 2;
  const float s = Mix(scale, shift);
  float p = s - 1.0f;
  for (int k = 0; k < nk; ++k) p = p * (x[i * nk + k] * y[j * nk + k]) + s;
  return p * s;
}
