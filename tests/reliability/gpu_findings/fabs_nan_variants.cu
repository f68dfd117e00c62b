// The device assembler's fold of a float magnitude compared with a constant, for a NaN: each
// form of |x| in `-3.25f < |x|` and `|x| >= 0.0f`, printed as 1/0 per input. Every line should
// read "0 0 1 1 1 1 1 1" (NaN, -NaN, 1, -5, inf, -inf, 0, -0: a NaN compares false).
//   nvcc -arch=sm_90 -o fabs_nan_variants fabs_nan_variants.cu && ./fabs_nan_variants
#include <cmath>
#include <cstdio>

__device__ __forceinline__ float andAbs(float v) {
  float r;
  asm("and.b32 %0, %1, 0x7fffffff;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ float asmAbs(float v) {
  float r;
  asm("abs.f32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ float bitsAbs(float v) { return __int_as_float(__float_as_int(v) & 0x7fffffff); }

__global__ void forms(const float* x, int* out, int n) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const float v = x[k];
  const float m[4] = {fabsf(v), andAbs(v), asmAbs(v), bitsAbs(v)};
  for (int f = 0; f < 4; ++f) {
    out[(2 * f) * n + k] = -3.25f < m[f];
    out[(2 * f + 1) * n + k] = m[f] >= 0.0f;
  }
}

int main() {
  const int n = 8;
  const float host[n] = {NAN, -NAN, 1.0f, -5.0f, INFINITY, -INFINITY, 0.0f, -0.0f};
  float* x;
  int* out;
  cudaMalloc(&x, sizeof host);
  cudaMalloc(&out, 8 * n * sizeof(int));
  cudaMemcpy(x, host, sizeof host, cudaMemcpyHostToDevice);
  forms<<<1, 32>>>(x, out, n);
  int got[8 * n];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  const char* names[4] = {"fabsf", "and.b32 (inline PTX)", "abs.f32 (inline PTX)", "__float_as_int & mask"};
  for (int f = 0; f < 8; ++f) {
    std::printf("%-24s %-12s", names[f / 2], f % 2 ? "|x| >= 0" : "-3.25 < |x|");
    for (int k = 0; k < n; ++k) std::printf(" %d", got[f * n + k]);
    std::printf("\n");
  }
  return 0;
}
