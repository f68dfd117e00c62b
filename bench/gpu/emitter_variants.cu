// What the proposed emitter changes would buy, measured without changing the emitter: the
// wrapper culift emits today for PearsonClamp and MaskedBroadcastRow0, and variants of it, beside
// the hand-written kernels. Standalone (nvcc on the GPU machine):
//
//   nvcc -O3 -arch=sm_90 -o emitter_variants bench/gpu/emitter_variants.cu && ./emitter_variants
//
//   emitted   the wrapper as emitted: 64-bit grid-stride loop (NVVM unrolls it by 4 and divides
//             to get the trip count in every thread)
//   unroll1   the same with #pragma unroll 1 on each loop
//   int32     unroll1 with 32-bit loop variables (extents below 2^31)
//   noloop    one element per thread, a bounds check, no loop (the plan covers the space)
//   emitted/N the emitted wrapper on a grid of N blocks per SM (1-D) or N blocks on y (2-D)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t e_ = (x);                                                                      \
    if (e_ != cudaSuccess) {                                                                   \
      std::printf("%s failed: %s (%s:%d)\n", #x, cudaGetErrorString(e_), __FILE__, __LINE__); \
      return 1;                                                                                \
    }                                                                                          \
  } while (0)

__device__ float PearsonClamp(float cov, float denom) {
  float c;
  if (denom > 1e-12f) {
    c = cov / denom;
  } else {
    c = 0.0f;
  }
  return fminf(1.0f, fmaxf(-1.0f, c));
}
__device__ float MaskedBroadcastRow0(const float* x, const bool* mask, int cols, int i, int j) {
  return mask[j] ? x[j] : x[(i * cols) + j];
}

// ---- PearsonClamp ----
__global__ void clamp_emitted(const float* __restrict__ cov, const float* __restrict__ denom, float* __restrict__ out,
                              long long n) {
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x)
    out[e] = PearsonClamp(cov[e], denom[e]);
}
__global__ void clamp_unroll1(const float* __restrict__ cov, const float* __restrict__ denom, float* __restrict__ out,
                              long long n) {
#pragma unroll 1
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x)
    out[e] = PearsonClamp(cov[e], denom[e]);
}
__global__ void clamp_int32(const float* __restrict__ cov, const float* __restrict__ denom, float* __restrict__ out,
                            int n) {
#pragma unroll 1
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x)
    out[e] = PearsonClamp(cov[e], denom[e]);
}
__global__ void clamp_noloop(const float* __restrict__ cov, const float* __restrict__ denom, float* __restrict__ out,
                             long long n) {
  long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) out[e] = PearsonClamp(cov[e], denom[e]);
}
__global__ void clamp_float4(const float4* __restrict__ cov, const float4* __restrict__ denom, float4* __restrict__ out,
                             long long n4) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n4) return;
  float4 c = cov[idx], d = denom[idx], r;
  r.x = PearsonClamp(c.x, d.x);
  r.y = PearsonClamp(c.y, d.y);
  r.z = PearsonClamp(c.z, d.z);
  r.w = PearsonClamp(c.w, d.w);
  out[idx] = r;
}

// ---- MaskedBroadcastRow0 (2-D: i on y, j on x) ----
__global__ void masked_emitted(const float* __restrict__ x, const bool* __restrict__ mask, int cols,
                               float* __restrict__ out, long long rows_, long long cols_) {
  for (long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y; i < rows_; i += (long long)gridDim.y * blockDim.y)
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < cols_; j += (long long)gridDim.x * blockDim.x)
      out[i * cols_ + j] = MaskedBroadcastRow0(x, mask, cols, (int)i, (int)j);
}
__global__ void masked_unroll1(const float* __restrict__ x, const bool* __restrict__ mask, int cols,
                               float* __restrict__ out, long long rows_, long long cols_) {
#pragma unroll 1
  for (long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y; i < rows_; i += (long long)gridDim.y * blockDim.y)
#pragma unroll 1
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < cols_; j += (long long)gridDim.x * blockDim.x)
      out[i * cols_ + j] = MaskedBroadcastRow0(x, mask, cols, (int)i, (int)j);
}
__global__ void masked_int32(const float* __restrict__ x, const bool* __restrict__ mask, int cols,
                             float* __restrict__ out, int rows_, int cols_) {
#pragma unroll 1
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < rows_; i += gridDim.y * blockDim.y)
#pragma unroll 1
    for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < cols_; j += gridDim.x * blockDim.x)
      out[i * cols_ + j] = MaskedBroadcastRow0(x, mask, cols, i, j);
}
__global__ void masked_noloop(const float* __restrict__ x, const bool* __restrict__ mask, int cols,
                              float* __restrict__ out, long long rows_, long long cols_) {
  long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y;
  long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows_ && j < cols_) out[i * cols_ + j] = MaskedBroadcastRow0(x, mask, cols, (int)i, (int)j);
}
__global__ void masked_float4(const float4* __restrict__ x, const uchar4* __restrict__ mask, float4* __restrict__ out,
                              int rows, int cols4) {
  long long idx = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= (long long)rows * cols4) return;
  int d = (int)(idx % cols4);
  uchar4 m = mask[d];
  float4 v = x[idx];
  if (m.x | m.y | m.z | m.w) {
    float4 r = x[d];
    if (m.x) v.x = r.x;
    if (m.y) v.y = r.y;
    if (m.z) v.z = r.z;
    if (m.w) v.w = r.w;
  }
  out[idx] = v;
}

template <typename F>
float medianMs(F launch, cudaEvent_t a, cudaEvent_t b) {
  std::vector<float> t;
  for (int w = 0; w < 5; ++w) launch();
  for (int r = 0; r < 60; ++r) {
    cudaEventRecord(a);
    for (int k = 0; k < 10; ++k) launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms / 10);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main() {
  const long long n = 1ll << 24;  // PearsonClamp elements; masked: 4096 x 4096
  const int rows = 4096, cols = 4096;
  float *a, *b, *out;
  bool* mask;
  CHECK(cudaMalloc(&a, n * 4));
  CHECK(cudaMalloc(&b, n * 4));
  CHECK(cudaMalloc(&out, n * 4));
  CHECK(cudaMalloc(&mask, cols));
  std::vector<float> h(n);
  for (long long k = 0; k < n; ++k) h[k] = (float)((k * 2654435761ull) % 1000) / 500.0f - 1.0f;
  CHECK(cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice));
  for (long long k = 0; k < n; ++k) h[k] = (float)((k * 40503ull) % 1000) / 1000.0f;
  CHECK(cudaMemcpy(b, h.data(), n * 4, cudaMemcpyHostToDevice));
  std::vector<char> m(cols);
  for (int j = 0; j < cols; ++j) m[j] = (j * 7919) % 3 == 0;
  CHECK(cudaMemcpy(mask, m.data(), cols, cudaMemcpyHostToDevice));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);

  const unsigned g1 = (unsigned)((n + 255) / 256);
  const int ni = (int)n;
  std::printf("PearsonClamp, %lld elements (12 B each)\n", n);
  auto report = [&](const char* what, float ms, double bytes) {
    std::printf("  %-10s %8.4f ms  %6.0f GB/s\n", what, ms, bytes / (ms * 1e6));
  };
  const double clampBytes = 12.0 * n, maskedBytes = 8.0 * rows * cols;
  float ref = medianMs([&] { clamp_float4<<<(unsigned)((n / 4 + 255) / 256), 256>>>((float4*)a, (float4*)b, (float4*)out, n / 4); }, e0, e1);
  report("float4", ref, clampBytes);
  report("emitted", medianMs([&] { clamp_emitted<<<g1, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  report("unroll1", medianMs([&] { clamp_unroll1<<<g1, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  report("int32", medianMs([&] { clamp_int32<<<g1, 256>>>(a, b, out, ni); }, e0, e1), clampBytes);
  report("noloop", medianMs([&] { clamp_noloop<<<g1, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  report("float4", medianMs([&] { clamp_float4<<<(unsigned)((n / 4 + 255) / 256), 256>>>((float4*)a, (float4*)b, (float4*)out, n / 4); }, e0, e1), clampBytes);

  // The emitted kernel unchanged, on a grid capped at a few blocks per SM: each thread runs many
  // iterations of the 4x-unrolled loop, so more loads are in flight (a planner change only).
  for (unsigned perSm : {4u, 8u, 16u, 32u}) {
    char what[32];
    std::snprintf(what, sizeof what, "emitted/%u", perSm);
    report(what, medianMs([&] { clamp_emitted<<<132 * perSm, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  }
  std::printf("MaskedBroadcastRow0, %d x %d (8 B per cell)\n", rows, cols);
  const dim3 block(32, 8), grid(cols / 32, rows / 8);
  report("float4", medianMs([&] { masked_float4<<<(unsigned)((rows * (cols / 4) + 255) / 256), 256>>>((float4*)a, (uchar4*)mask, (float4*)out, rows, cols / 4); }, e0, e1), maskedBytes);
  report("emitted", medianMs([&] { masked_emitted<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1), maskedBytes);
  report("unroll1", medianMs([&] { masked_unroll1<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1), maskedBytes);
  report("int32", medianMs([&] { masked_int32<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1), maskedBytes);
  report("noloop", medianMs([&] { masked_noloop<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1), maskedBytes);
  for (unsigned ySplit : {16u, 32u, 64u}) {  // grid.y capped: each thread walks rows / (8 * ySplit) rows
    char what[32];
    std::snprintf(what, sizeof what, "emitted/y%u", ySplit);
    report(what, medianMs([&] { masked_emitted<<<dim3(cols / 32, ySplit), block>>>(a, mask, cols, out, rows, cols); }, e0, e1), maskedBytes);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return 0;
}
