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

#include "reference_kernels.cu"  // ref_sat, the hand-written SAT kernel the benchmark uses

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::printf("%s failed: %s (%s:%d)\n", #x, cudaGetErrorString(e_), __FILE__, __LINE__); \
      return 1;                                                                               \
    }                                                                                         \
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
  for (long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y; i < rows_;
       i += (long long)gridDim.y * blockDim.y)
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < cols_;
         j += (long long)gridDim.x * blockDim.x)
      out[i * cols_ + j] = MaskedBroadcastRow0(x, mask, cols, (int)i, (int)j);
}
__global__ void masked_unroll1(const float* __restrict__ x, const bool* __restrict__ mask, int cols,
                               float* __restrict__ out, long long rows_, long long cols_) {
#pragma unroll 1
  for (long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y; i < rows_;
       i += (long long)gridDim.y * blockDim.y)
#pragma unroll 1
    for (long long j = (long long)blockIdx.x * blockDim.x + threadIdx.x; j < cols_;
         j += (long long)gridDim.x * blockDim.x)
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

// ---- Coarsened wrappers: four elements per thread on the innermost axis ----
// ilp4s: the thread's four elements are blockDim.x apart (each access coalesced, four loads in
//        flight per thread); ilp4c: four consecutive elements; al: pointers declared 16-byte
//        aligned (lets the load/store vectorizer merge neighbouring accesses).
__global__ void clamp_ilp4s64(const float* __restrict__ cov, const float* __restrict__ denom, float* __restrict__ out,
                              long long n) {
  const long long stride = (long long)gridDim.x * blockDim.x * 4;
#pragma unroll 1
  for (long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x; b < n; b += stride) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      long long e = b + (long long)c * blockDim.x;
      if (e < n) out[e] = PearsonClamp(cov[e], denom[e]);
    }
  }
}
__global__ void clamp_ilp4s32(const float* __restrict__ cov, const float* __restrict__ denom, float* __restrict__ out,
                              int n) {
  const int stride = gridDim.x * blockDim.x * 4;
#pragma unroll 1
  for (int b = blockIdx.x * blockDim.x * 4 + threadIdx.x; b < n; b += stride) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      int e = b + c * (int)blockDim.x;
      if (e < n) out[e] = PearsonClamp(cov[e], denom[e]);
    }
  }
}
__global__ void clamp_ilp4c32al(const float* __restrict__ cov_, const float* __restrict__ denom_,
                                float* __restrict__ out_, int n) {
  const float* cov = (const float*)__builtin_assume_aligned(cov_, 16);
  const float* denom = (const float*)__builtin_assume_aligned(denom_, 16);
  float* out = (float*)__builtin_assume_aligned(out_, 16);
  const int stride = gridDim.x * blockDim.x * 4;
#pragma unroll 1
  for (int b = (blockIdx.x * blockDim.x + threadIdx.x) * 4; b < n; b += stride) {
    if (b + 3 < n) {
#pragma unroll
      for (int c = 0; c < 4; ++c) out[b + c] = PearsonClamp(cov[b + c], denom[b + c]);
    } else {
      for (int e = b; e < n; ++e) out[e] = PearsonClamp(cov[e], denom[e]);
    }
  }
}
__global__ void masked_ilp4s64(const float* __restrict__ x, const bool* __restrict__ mask, int cols,
                               float* __restrict__ out, long long rows_, long long cols_) {
#pragma unroll 1
  for (long long i = (long long)blockIdx.y * blockDim.y + threadIdx.y; i < rows_;
       i += (long long)gridDim.y * blockDim.y)
#pragma unroll 1
    for (long long b = (long long)blockIdx.x * blockDim.x * 4 + threadIdx.x; b < cols_;
         b += (long long)gridDim.x * blockDim.x * 4)
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        long long j = b + (long long)c * blockDim.x;
        if (j < cols_) out[i * cols_ + j] = MaskedBroadcastRow0(x, mask, cols, (int)i, (int)j);
      }
}
__global__ void masked_ilp4s32(const float* __restrict__ x, const bool* __restrict__ mask, int cols,
                               float* __restrict__ out, int rows_, int cols_) {
#pragma unroll 1
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < rows_; i += gridDim.y * blockDim.y)
#pragma unroll 1
    for (int b = blockIdx.x * blockDim.x * 4 + threadIdx.x; b < cols_; b += gridDim.x * blockDim.x * 4)
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        int j = b + c * (int)blockDim.x;
        if (j < cols_) out[i * cols_ + j] = MaskedBroadcastRow0(x, mask, cols, i, j);
      }
}

// ---- RectTriangleOverlap (SAT): the generated device function; ref_sat is the benchmark's own ----
__device__ float RectTriangleOverlap(const float* rectMin, const float* rectMax, const float* triangle, int i) {
  float eps = 1e-06f;
  float cx[4] = {rectMin[2 * i], rectMax[2 * i], rectMax[2 * i], rectMin[2 * i]};
  float cy[4] = {rectMin[(2 * i) + 1], rectMin[(2 * i) + 1], rectMax[(2 * i) + 1], rectMax[(2 * i) + 1]};
  float tx[3];
  float ty[3];
  for (int v = 0; v < 3; ++v) {
    tx[v] = triangle[(6 * i) + (2 * v)];
    ty[v] = triangle[((6 * i) + (2 * v)) + 1];
  }
  float ax[5];
  float ay[5];
  ax[0] = 1.0f;
  ay[0] = 0.0f;
  ax[1] = 0.0f;
  ay[1] = 1.0f;
  for (int e = 0; e < 3; ++e) {
    int next = (e + 1) % 3;
    float ex = tx[next] - tx[e];
    float ey = ty[next] - ty[e];
    float nx = -ey;
    float ny = ex;
    float len = sqrtf((nx * nx) + (ny * ny)) + 1e-08f;
    ax[2 + e] = nx / len;
    ay[2 + e] = ny / len;
  }
  for (int a = 0; a < 5; ++a) {
    float r0 = (cx[0] * ax[a]) + (cy[0] * ay[a]);
    float r1 = r0;
    for (int c = 1; c < 4; ++c) {
      float p = (cx[c] * ax[a]) + (cy[c] * ay[a]);
      r0 = fminf(r0, p);
      r1 = fmaxf(r1, p);
    }
    float t0 = (tx[0] * ax[a]) + (ty[0] * ay[a]);
    float t1 = t0;
    for (int v = 1; v < 3; ++v) {
      float p = (tx[v] * ax[a]) + (ty[v] * ay[a]);
      t0 = fminf(t0, p);
      t1 = fmaxf(t1, p);
    }
    if ((r1 < (t0 - eps)) || (t1 < (r0 - eps))) {
      return 0.0f;
    }
  }
  return 1.0f;
}


__global__ void sat_emitted(const float* __restrict__ rectMin, const float* __restrict__ rectMax,
                            const float* __restrict__ triangle, float* __restrict__ out, long long n) {
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x)
    out[e] = RectTriangleOverlap(rectMin, rectMax, triangle, (int)e);
}
__global__ void sat_int32(const float* __restrict__ rectMin, const float* __restrict__ rectMax,
                          const float* __restrict__ triangle, float* __restrict__ out, int n) {
#pragma unroll 1
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x)
    out[e] = RectTriangleOverlap(rectMin, rectMax, triangle, e);
}
__global__ void sat_int32al(const float* __restrict__ rectMin_, const float* __restrict__ rectMax_,
                            const float* __restrict__ triangle_, float* __restrict__ out, int n) {
  const float* rectMin = (const float*)__builtin_assume_aligned(rectMin_, 16);
  const float* rectMax = (const float*)__builtin_assume_aligned(rectMax_, 16);
  const float* triangle = (const float*)__builtin_assume_aligned(triangle_, 16);
#pragma unroll 1
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < n; e += gridDim.x * blockDim.x)
    out[e] = RectTriangleOverlap(rectMin, rectMax, triangle, e);
}
__global__ void sat_ilp4s32(const float* __restrict__ rectMin, const float* __restrict__ rectMax,
                            const float* __restrict__ triangle, float* __restrict__ out, int n) {
#pragma unroll 1
  for (int b = blockIdx.x * blockDim.x * 4 + threadIdx.x; b < n; b += gridDim.x * blockDim.x * 4)
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      int e = b + c * (int)blockDim.x;
      if (e < n) out[e] = RectTriangleOverlap(rectMin, rectMax, triangle, e);
    }
}

template <typename F> float medianMs(F launch, cudaEvent_t a, cudaEvent_t b) {
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
  float ref = medianMs(
      [&] { clamp_float4<<<(unsigned)((n / 4 + 255) / 256), 256>>>((float4*)a, (float4*)b, (float4*)out, n / 4); }, e0,
      e1);
  report("float4", ref, clampBytes);
  report("emitted", medianMs([&] { clamp_emitted<<<g1, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  report("unroll1", medianMs([&] { clamp_unroll1<<<g1, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  report("int32", medianMs([&] { clamp_int32<<<g1, 256>>>(a, b, out, ni); }, e0, e1), clampBytes);
  report("noloop", medianMs([&] { clamp_noloop<<<g1, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  report("float4",
         medianMs(
             [&] {
               clamp_float4<<<(unsigned)((n / 4 + 255) / 256), 256>>>((float4*)a, (float4*)b, (float4*)out, n / 4);
             },
             e0, e1),
         clampBytes);
  const unsigned g4 = (unsigned)((n / 4 + 255) / 256);
  report("ilp4s64", medianMs([&] { clamp_ilp4s64<<<g4, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  report("ilp4s32", medianMs([&] { clamp_ilp4s32<<<g4, 256>>>(a, b, out, ni); }, e0, e1), clampBytes);
  report("ilp4c32al", medianMs([&] { clamp_ilp4c32al<<<g4, 256>>>(a, b, out, ni); }, e0, e1), clampBytes);

  // The emitted kernel unchanged, on a grid capped at a few blocks per SM: each thread runs many
  // iterations of the 4x-unrolled loop, so more loads are in flight (a planner change only).
  for (unsigned perSm : {4u, 8u, 16u, 32u}) {
    char what[32];
    std::snprintf(what, sizeof what, "emitted/%u", perSm);
    report(what, medianMs([&] { clamp_emitted<<<132 * perSm, 256>>>(a, b, out, n); }, e0, e1), clampBytes);
  }
  std::printf("MaskedBroadcastRow0, %d x %d (8 B per cell)\n", rows, cols);
  const dim3 block(32, 8), grid(cols / 32, rows / 8);
  report("float4",
         medianMs(
             [&] {
               masked_float4<<<(unsigned)((rows * (cols / 4) + 255) / 256), 256>>>((float4*)a, (uchar4*)mask,
                                                                                   (float4*)out, rows, cols / 4);
             },
             e0, e1),
         maskedBytes);
  report("emitted", medianMs([&] { masked_emitted<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1),
         maskedBytes);
  report("unroll1", medianMs([&] { masked_unroll1<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1),
         maskedBytes);
  report("int32", medianMs([&] { masked_int32<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1),
         maskedBytes);
  report("noloop", medianMs([&] { masked_noloop<<<grid, block>>>(a, mask, cols, out, rows, cols); }, e0, e1),
         maskedBytes);
  for (unsigned ySplit : {16u, 32u, 64u}) {  // grid.y capped: each thread walks rows / (8 * ySplit) rows
    char what[32];
    std::snprintf(what, sizeof what, "emitted/y%u", ySplit);
    report(what,
           medianMs([&] { masked_emitted<<<dim3(cols / 32, ySplit), block>>>(a, mask, cols, out, rows, cols); }, e0,
                    e1),
           maskedBytes);
  }
  const dim3 grid4(cols / 128, rows / 8);
  report("ilp4s64", medianMs([&] { masked_ilp4s64<<<grid4, block>>>(a, mask, cols, out, rows, cols); }, e0, e1),
         maskedBytes);
  report("ilp4s32", medianMs([&] { masked_ilp4s32<<<grid4, block>>>(a, mask, cols, out, rows, cols); }, e0, e1),
         maskedBytes);
  const dim3 block1(256, 1), grid41(cols / 1024, rows);
  report("ilp4s32/1", medianMs([&] { masked_ilp4s32<<<grid41, block1>>>(a, mask, cols, out, rows, cols); }, e0, e1),
         maskedBytes);

  // SAT: 16M pairs; rectMin/rectMax 2 floats each, triangle 6 floats; 44 B per pair.
  const int np = 1 << 24;
  float *rmin, *rmax, *tri, *satOut;
  CHECK(cudaMalloc(&rmin, 8ll * np));
  CHECK(cudaMalloc(&rmax, 8ll * np));
  CHECK(cudaMalloc(&tri, 24ll * np));
  CHECK(cudaMalloc(&satOut, 4ll * np));
  {
    std::vector<float> r(2ll * np), t(6ll * np);
    for (long long k = 0; k < 2ll * np; ++k) r[k] = (float)((k * 2654435761ull) % 1000) / 100.0f;
    CHECK(cudaMemcpy(rmin, r.data(), 8ll * np, cudaMemcpyHostToDevice));
    for (auto& v : r) v += 1.0f;
    CHECK(cudaMemcpy(rmax, r.data(), 8ll * np, cudaMemcpyHostToDevice));
    for (long long k = 0; k < 6ll * np; ++k) t[k] = (float)((k * 40503ull) % 1000) / 100.0f;
    CHECK(cudaMemcpy(tri, t.data(), 24ll * np, cudaMemcpyHostToDevice));
  }
  std::printf("RectTriangleOverlap, %d pairs (44 B each)\n", np);
  const double satBytes = 44.0 * np;
  const unsigned gs = (np + 255) / 256;
  report("hand",
         medianMs([&] { ref_sat<<<gs, 256>>>((float2*)rmin, (float2*)rmax, (float2*)tri, satOut, np); }, e0, e1),
         satBytes);
  report("emitted", medianMs([&] { sat_emitted<<<gs, 256>>>(rmin, rmax, tri, satOut, np); }, e0, e1), satBytes);
  report("int32", medianMs([&] { sat_int32<<<gs, 256>>>(rmin, rmax, tri, satOut, np); }, e0, e1), satBytes);
  report("int32al", medianMs([&] { sat_int32al<<<gs, 256>>>(rmin, rmax, tri, satOut, np); }, e0, e1), satBytes);
  report("ilp4s32", medianMs([&] { sat_ilp4s32<<<(np / 4 + 255) / 256, 256>>>(rmin, rmax, tri, satOut, np); }, e0, e1),
         satBytes);
  report("hand",
         medianMs([&] { ref_sat<<<gs, 256>>>((float2*)rmin, (float2*)rmax, (float2*)tri, satOut, np); }, e0, e1),
         satBytes);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  return 0;
}
