// Variants of the emitted CUDA of GPU-leg finding p2348 (seed 20261203), for the GPU machine:
//   nvcc -arch=sm_90 --fmad=false negzero_harness.cu -o h && ./h
// Each kernel checksums {+0, +0, -|s1|, +0} with s1 = +0; the C++ value is 2500492851543773139.

// ---- culift device prelude: std::min, std::max, std::clamp, std::abs as C++ defines them ----
template <typename T> __device__ __forceinline__ T culift_min(T a, T b) { return (b < a) ? b : a; }
template <typename T> __device__ __forceinline__ T culift_max(T a, T b) { return (a < b) ? b : a; }
template <typename T> __device__ __forceinline__ T culift_clamp(T v, T lo, T hi) {
  return (v < lo) ? lo : (hi < v) ? hi : v;
}
__device__ __forceinline__ int culift_abs(int v) { return abs(v); }
__device__ __forceinline__ long long culift_abs(long long v) { return llabs(v); }
__device__ __forceinline__ float culift_abs(float v) { return fabsf(v); }
__device__ __forceinline__ double culift_abs(double v) { return fabs(v); }
// A value the device compiler cannot see through (an empty mov in inline PTX), which keeps it
// from rules that do not hold. The device assembler removes the mov.
__device__ __forceinline__ float culift_opaque(float v) {
  float r;
  asm("mov.b32 %0, %1;" : "=f"(r) : "f"(v));
  return r;
}
__device__ __forceinline__ double culift_opaque(double v) {
  double r;
  asm("mov.b64 %0, %1;" : "=d"(r) : "d"(v));
  return r;
}
__device__ __forceinline__ int culift_opaque(int v) {
  int r;
  asm("mov.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}
__device__ __forceinline__ unsigned int culift_opaque(unsigned int v) {
  unsigned int r;
  asm("mov.b32 %0, %1;" : "=r"(r) : "r"(v));
  return r;
}
__device__ __forceinline__ long long culift_opaque(long long v) {
  long long r;
  asm("mov.b64 %0, %1;" : "=l"(r) : "l"(v));
  return r;
}
__device__ __forceinline__ unsigned long long culift_opaque(unsigned long long v) {
  unsigned long long r;
  asm("mov.b64 %0, %1;" : "=l"(r) : "l"(v));
  return r;
}
// Floating zeros: with a constant zero z the compiler turns `(z < x) ? x : z` into max(x, z),
// which orders -0.0 below +0.0 where C++ finds them equal.
__device__ __forceinline__ float culift_zero(float z) { return culift_opaque(z); }
__device__ __forceinline__ double culift_zero(double z) { return culift_opaque(z); }
// Floating divisors go through culift_opaque: the compiler takes a quotient of two numbers
// for a number, which 0/0 is not.
// An integer converted to a char or short: the arithmetic before stays in 32 bits, where the
// compiler would narrow it to 16-bit operations it does not always get right.
template <typename T, typename S> __device__ __forceinline__ T culift_narrow(S v) { return (T)culift_opaque(v); }
// ++ and -- of a char or short, through culift_narrow.
template <typename T> __device__ __forceinline__ T& culift_pre_inc(T& x) { return x = culift_narrow<T>(x + 1); }
template <typename T> __device__ __forceinline__ T& culift_pre_dec(T& x) { return x = culift_narrow<T>(x - 1); }
template <typename T> __device__ __forceinline__ T culift_post_inc(T& x) {
  const T old = x;
  x = culift_narrow<T>(x + 1);
  return old;
}
template <typename T> __device__ __forceinline__ T culift_post_dec(T& x) {
  const T old = x;
  x = culift_narrow<T>(x - 1);
  return old;
}
// N elements read or written as one aligned access (element-wise kernels)
template <typename T, int N> struct alignas(sizeof(T) * N) culift_vec { T v[N]; };
// ---- end of culift device prelude ----
// culift_ck_mix, from nz.hpp:9: DeviceOnly, a __device__ function for other lifted functions
__device__ unsigned long long culift_ck_mix(unsigned long long h, unsigned long long v) {
  return (h * 1099511628211ull) + v;
}

#include <cstdio>

__device__ __forceinline__ float neg_bits(float v) { return __int_as_float(__float_as_int(v) ^ (int)0x80000000u); }

// V selects the variant of culift_ck_mixf: 0 as emitted, 1 literal zero in the comparison,
// 4 signbit from the bits, 5 equality as <= and >=, 7 the sign read after the comparison.
template <int V>
__device__ unsigned long long mixf(unsigned long long h, float x) {
  if (!(x == x)) return culift_ck_mix(h, 1ull);
  unsigned long long s = V == 4 ? (unsigned long long)(__float_as_uint(x) >> 31) : (signbit(x) ? 1ull : 0ull);
  float a = fabsf(x);
  if (a > 3.4028235e+38f) return culift_ck_mix(h, 2ull + s);
  bool zero;
  if (V == 1) zero = a == 0.0f;
  else if (V == 5) zero = (a <= culift_zero(0.0f)) & (a >= culift_zero(0.0f));
  else zero = a == culift_zero(0.0f);
  if (zero) return culift_ck_mix(h, 4ull + (V == 7 ? (signbit(x) ? 1ull : 0ull) : s));
  unsigned long long e = 4096ull;
  while (a >= 3.6028797e+16f) { a *= 2.3283064e-10f; e += 32ull; }
  while (a >= 2147483648.0f) { a *= 0.00390625f; e += 8ull; }
  while (a >= 16777216.0f) { a *= 0.5f; e += 1ull; }
  while (a < 0.00390625f) { a *= 4294967296.0f; e -= 32ull; }
  while (a < 65536.0f) { a *= 256.0f; e -= 8ull; }
  while (a < 8388608.0f) { a *= 2.0f; e -= 1ull; }
  return culift_ck_mix(culift_ck_mix(h, (unsigned long long)a), (e * 2ull) + s);
}

// X selects the array: 0 as emitted, 2 the negation through culift_opaque, 3 the negation as a
// flip of the sign bit, 6 plain zero literals beside -|s1|, 8 -(|s1|) as (0 - |s1|) * -1... no: as -1.0f * |s1|.
template <int V, int X>
__global__ void k(float s1, unsigned long long* out) {
  float arr[4];
  if (X == 2) { float t[4] = {culift_zero(0.0f), culift_zero(0.0f), culift_opaque(-culift_abs(s1)), culift_zero(0.0f)}; for (int q = 0; q < 4; ++q) arr[q] = t[q]; }
  else if (X == 3) { float t[4] = {culift_zero(0.0f), culift_zero(0.0f), neg_bits(culift_abs(s1)), culift_zero(0.0f)}; for (int q = 0; q < 4; ++q) arr[q] = t[q]; }
  else if (X == 6) { float t[4] = {0.0f, 0.0f, -culift_abs(s1), 0.0f}; for (int q = 0; q < 4; ++q) arr[q] = t[q]; }
  else if (X == 8) { float t[4] = {culift_zero(0.0f), culift_zero(0.0f), -1.0f * culift_abs(s1), culift_zero(0.0f)}; for (int q = 0; q < 4; ++q) arr[q] = t[q]; }
  else { float t[4] = {culift_zero(0.0f), culift_zero(0.0f), -culift_abs(s1), culift_zero(0.0f)}; for (int q = 0; q < 4; ++q) arr[q] = t[q]; }
  unsigned long long ck = 0ull;
  for (int q = 0; q < 4; ++q) ck = mixf<V>(ck, arr[q]);
  out[threadIdx.x] = ck;
}

template <int V, int X>
void run(const char* name) {
  unsigned long long* d;
  cudaMalloc(&d, 32 * sizeof(unsigned long long));
  k<V, X><<<1, 32>>>(0.0f, d);
  unsigned long long h[32];
  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  const unsigned long long want = 2500492851543773139ull;
  std::printf("%-32s %s %llu%s\n", name, h[0] == want ? "ok   " : "WRONG", h[0], e ? " (cuda error)" : "");
}

int main() {
  run<0, 0>("as emitted");
  run<1, 0>("literal zero in ==");
  run<4, 0>("signbit from bits");
  run<5, 0>("== as <= and >=");
  run<7, 0>("sign read after ==");
  run<0, 2>("negation through opaque");
  run<0, 3>("negation as sign flip");
  run<0, 6>("plain zeros in the array");
  run<0, 8>("negation as -1.0f * x");
  run<5, 3>("<=,>= and sign flip");
  return 0;
}
