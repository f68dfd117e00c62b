// An unannotated helper called by a kernel is lifted as a __device__ function, emitted first.
#include <culift/annotate.hpp>

inline float Square(float v) { return v * v; }

inline float Norm2(const float* x, int cols, int row) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += Square(x[row * cols + k]);
  return s;
}

CULIFT_KERNEL float HelperCall(const float* x, int cols, int i) { return Norm2(x, cols, i) + Square(1.5f); }
