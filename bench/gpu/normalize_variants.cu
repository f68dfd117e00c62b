// What the per-thread wrapper of a 2-D or 3-D kernel could buy, measured without changing the
// emitter: the benchmark's normalize steps (layer norm, softmax, RMS norm) as culift emits their
// device functions, called from the wrapper as emitted (four indices per thread, blockDim.x apart,
// each behind its own bounds test) and from variants of it. Standalone, on the GPU machine:
//
//   culift emit bench/gpu/reduction_kernels.hpp -o .gpu/red.cu        (on the development machine)
//   culift emit bench/gpu/column_cells.hpp --function RmsNormalize -o - | sed -n '/^__device__ float
//   RmsNormalize/,/^}/p' > .gpu/rms.cu nvcc -O3 -arch=sm_90 -I.gpu -o normalize_variants
//   bench/gpu/normalize_variants.cu && ./normalize_variants
//
//   emitted/N   N indices per thread, each behind its own bounds test (today's wrapper at N = 4)
//   whole/N     a thread whose N indices are all in range computes the N values first, then stores
//               them (no test between them); the last partial group as emitted
//   reads/N     N indices per thread, the function's array reads of all N first (each behind its
//               bounds test), then the arithmetic and the stores: the loads of N outputs in flight
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "red.cu"
#include "rms.cu"  // RmsNormalize's device function alone (the prelude is red.cu's)

#include "cuda_check.cuh"

// The innermost loop of a per-thread wrapper: indices k0, k0 + blockDim.x, ... of the last axis.
#define CULIFT_ITEMS(STORE_AT, CALL_AT)                   \
  if (WHOLE && k0 + (ITEMS - 1) * (int)blockDim.x < nk) { \
    float r[ITEMS];                                       \
    _Pragma("unroll") for (int u = 0; u < ITEMS; ++u) {   \
      const int k = k0 + u * (int)blockDim.x;             \
      r[u] = CALL_AT;                                     \
    }                                                     \
    _Pragma("unroll") for (int u = 0; u < ITEMS; ++u) {   \
      const int k = k0 + u * (int)blockDim.x;             \
      STORE_AT = r[u];                                    \
    }                                                     \
  } else {                                                \
    _Pragma("unroll") for (int u = 0; u < ITEMS; ++u) {   \
      const int k = k0 + u * (int)blockDim.x;             \
      if (k < nk) STORE_AT = CALL_AT;                     \
    }                                                     \
  }

template <int ITEMS, bool WHOLE> __global__ void layerNorm(const float* __restrict__ x, const float* __restrict__ mean,
                                                           const float* __restrict__ var, long long n,
                                                           float* __restrict__ out, int ni, int nk) {
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < ni; i += gridDim.y * blockDim.y)
#pragma unroll 1
    for (int k0 = blockIdx.x * blockDim.x * ITEMS + threadIdx.x; k0 < nk; k0 += gridDim.x * blockDim.x * ITEMS) {
      CULIFT_ITEMS(out[i * nk + k], LayerNormalize(x, mean, var, n, i, k))
    }
}

template <int ITEMS, bool WHOLE> __global__ void softmax(const float* __restrict__ x, const float* __restrict__ max,
                                                         const float* __restrict__ sum, long long n,
                                                         float* __restrict__ out, int ni, int nk) {
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < ni; i += gridDim.y * blockDim.y)
#pragma unroll 1
    for (int k0 = blockIdx.x * blockDim.x * ITEMS + threadIdx.x; k0 < nk; k0 += gridDim.x * blockDim.x * ITEMS) {
      CULIFT_ITEMS(out[(long long)i * nk + k], SoftmaxNormalize(x, max, sum, n, i, k))
    }
}

template <int ITEMS, bool WHOLE> __global__ void rmsNorm(const float* __restrict__ x, const float* __restrict__ r,
                                                         int F, int S, float* __restrict__ out, int ni, int nj,
                                                         int nk) {
  for (int i = blockIdx.z * blockDim.z + threadIdx.z; i < ni; i += gridDim.z * blockDim.z)
#pragma unroll 1
    for (int j = blockIdx.y * blockDim.y + threadIdx.y; j < nj; j += gridDim.y * blockDim.y)
#pragma unroll 1
      for (int k0 = blockIdx.x * blockDim.x * ITEMS + threadIdx.x; k0 < nk; k0 += gridDim.x * blockDim.x * ITEMS) {
        CULIFT_ITEMS(out[(i * nj + j) * nk + k], RmsNormalize(x, r, F, S, i, j, k))
      }
}

// The function's reads of every index first, then its arithmetic (the device function's body by
// hand, with its reads replaced).
template <int ITEMS> __global__ void layerNormReads(const float* __restrict__ x, const float* __restrict__ mean,
                                                    const float* __restrict__ variance, long long n,
                                                    float* __restrict__ out, int ni, int nk) {
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < ni; i += gridDim.y * blockDim.y)
#pragma unroll 1
    for (int k0 = blockIdx.x * blockDim.x * ITEMS + threadIdx.x; k0 < nk; k0 += gridDim.x * blockDim.x * ITEMS) {
      float r0[ITEMS], r1[ITEMS], r2[ITEMS];
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int j = k0 + u * (int)blockDim.x;
        if (j < nk) {
          r0[u] = x[((long long)i * n) + (long long)j];
          r1[u] = mean[i];
          r2[u] = variance[i];
        }
      }
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int j = k0 + u * (int)blockDim.x;
        if (j < nk) out[i * nk + j] = (r0[u] - r1[u]) / culift_opaque(sqrtf(r2[u] + 1e-05f));
      }
    }
}

template <int ITEMS> __global__ void softmaxReads(const float* __restrict__ x, const float* __restrict__ max,
                                                  const float* __restrict__ sum, long long n, float* __restrict__ out,
                                                  int ni, int nk) {
  for (int i = blockIdx.y * blockDim.y + threadIdx.y; i < ni; i += gridDim.y * blockDim.y)
#pragma unroll 1
    for (int k0 = blockIdx.x * blockDim.x * ITEMS + threadIdx.x; k0 < nk; k0 += gridDim.x * blockDim.x * ITEMS) {
      float r0[ITEMS], r1[ITEMS], r2[ITEMS];
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int j = k0 + u * (int)blockDim.x;
        if (j < nk) {
          r0[u] = x[((long long)i * n) + (long long)j];
          r1[u] = max[i];
          r2[u] = sum[i];
        }
      }
#pragma unroll
      for (int u = 0; u < ITEMS; ++u) {
        const int j = k0 + u * (int)blockDim.x;
        if (j < nk) out[(long long)i * nk + j] = expf(r0[u] - r1[u]) / culift_opaque(r2[u]);
      }
    }
}

template <int ITEMS> __global__ void rmsNormReads(const float* __restrict__ x, const float* __restrict__ rms, int F,
                                                  int S, float* __restrict__ out, int ni, int nj, int nk) {
  for (int b = blockIdx.z * blockDim.z + threadIdx.z; b < ni; b += gridDim.z * blockDim.z)
#pragma unroll 1
    for (int f = blockIdx.y * blockDim.y + threadIdx.y; f < nj; f += gridDim.y * blockDim.y)
#pragma unroll 1
      for (int k0 = blockIdx.x * blockDim.x * ITEMS + threadIdx.x; k0 < nk; k0 += gridDim.x * blockDim.x * ITEMS) {
        float r0[ITEMS], r1[ITEMS];
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) {
          const int s = k0 + u * (int)blockDim.x;
          if (s < nk) {
            r0[u] = x[(((b * F) + f) * S) + s];
            r1[u] = rms[(b * S) + s];
          }
        }
#pragma unroll
        for (int u = 0; u < ITEMS; ++u) {
          const int s = k0 + u * (int)blockDim.x;
          if (s < nk) out[(b * nj + f) * nk + s] = r0[u] / culift_opaque(r1[u]);
        }
      }
}

__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, long long n4) {
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n4; e += (long long)gridDim.x * blockDim.x)
    out[e] = in[e];
}

__global__ void fill(float* p, long long n, float lo, float hi, unsigned seed) {
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n; e += (long long)gridDim.x * blockDim.x) {
    unsigned h = (unsigned)e * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    p[e] = lo + (hi - lo) * (h >> 8) * (1.0f / 16777216.0f);
  }
}

template <typename Launch> float timeMs(Launch launch) { return (float)medianMs(launch, 9, 2); }

float* buffer(long long n, float lo, float hi, unsigned seed) {
  float* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(float)));
  fill<<<4096, 256>>>(p, n, lo, hi, seed);
  return p;
}

bool same(const float* a, const float* b, long long n) {
  std::vector<float> x(1 << 20), y(1 << 20);
  for (long long at : {0LL, n / 2, n - (1LL << 20)}) {
    CHECK(cudaMemcpy(x.data(), a + at, x.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(y.data(), b + at, y.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t k = 0; k < x.size(); ++k)
      if (__builtin_memcmp(&x[k], &y[k], 4) != 0) return false;
  }
  return true;
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("%s, %d SMs\n", prop.name, sms);
  // Times `launch`, then compares its output with `ref` (the emitted wrapper's) where given.
  auto report = [](const char* what, auto launch, double bytes, const float* ref, const float* out, long long n) {
    const float ms = timeMs(launch);
    const char* bits = !ref ? "(reference)" : same(ref, out, n) ? "same bits" : "DIFFERENT";
    std::printf("  %-34s %8.4f ms  %6.0f GB/s  %s\n", what, ms, bytes / (ms * 1e6), bits);
  };
  {
    const long long n = 1LL << 28;  // 1 GiB in, 1 GiB out
    float *in = buffer(n, -1, 1, 1), *out = buffer(n, 0, 0, 2);
    const float ms = timeMs([&] { copy4<<<sms * 16, 256>>>((const float4*)in, (float4*)out, n / 4); });
    std::printf("  %-34s %8.4f ms  %6.0f GB/s  %s\n", "copy (float4)", ms, 8.0 * n / (ms * 1e6),
                same(in, out, n) ? "same bits" : "DIFFERENT");
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
  }
  {
    const int rows = 16, cols = 4194304;
    const long long n = (long long)rows * cols;
    float *x = buffer(n, -1, 1, 3), *mean = buffer(rows, -0.01f, 0.01f, 4), *var = buffer(rows, 0.3f, 0.4f, 5);
    float *ref = buffer(n, 0, 0, 6), *out = buffer(n, 0, 0, 7);
    std::printf("layer norm's normalize, %d x %d (block 32 x 8)\n", rows, cols);
    const dim3 block(32, 8);
    auto grid = [&](int items) { return dim3((cols + 32 * items - 1) / (32 * items), (rows + 7) / 8); };
    report(
        "emitted/4", [&] { layerNorm<4, false><<<grid(4), block>>>(x, mean, var, cols, ref, rows, cols); }, 8.0 * n,
        nullptr, nullptr, 0);
    report(
        "emitted/1", [&] { layerNorm<1, false><<<grid(1), block>>>(x, mean, var, cols, out, rows, cols); }, 8.0 * n,
        ref, out, n);
    report(
        "whole/4", [&] { layerNorm<4, true><<<grid(4), block>>>(x, mean, var, cols, out, rows, cols); }, 8.0 * n, ref,
        out, n);
    report(
        "whole/8", [&] { layerNorm<8, true><<<grid(8), block>>>(x, mean, var, cols, out, rows, cols); }, 8.0 * n, ref,
        out, n);
    report(
        "reads/4", [&] { layerNormReads<4><<<grid(4), block>>>(x, mean, var, cols, out, rows, cols); }, 8.0 * n, ref,
        out, n);
    report(
        "reads/8", [&] { layerNormReads<8><<<grid(8), block>>>(x, mean, var, cols, out, rows, cols); }, 8.0 * n, ref,
        out, n);
    report(
        "emitted/8", [&] { layerNorm<8, false><<<grid(8), block>>>(x, mean, var, cols, out, rows, cols); }, 8.0 * n,
        ref, out, n);
    for (float* p : {x, mean, var, ref, out}) CHECK(cudaFree(p));
  }
  {
    const int rows = 4096, cols = 393216;
    const long long n = (long long)rows * cols;
    float *x = buffer(n, -4, 4, 8), *max = buffer(rows, 4, 4, 9), *sum = buffer(rows, 50000, 60000, 10);
    float *ref = buffer(n, 0, 0, 11), *out = buffer(n, 0, 0, 12);
    std::printf("softmax's normalize, %d x %d (block 32 x 8)\n", rows, cols);
    const dim3 block(32, 8);
    auto grid = [&](int items) { return dim3((cols + 32 * items - 1) / (32 * items), (rows + 7) / 8); };
    report(
        "emitted/4", [&] { softmax<4, false><<<grid(4), block>>>(x, max, sum, cols, ref, rows, cols); }, 8.0 * n,
        nullptr, nullptr, 0);
    report(
        "whole/4", [&] { softmax<4, true><<<grid(4), block>>>(x, max, sum, cols, out, rows, cols); }, 8.0 * n, ref, out,
        n);
    report(
        "reads/4", [&] { softmaxReads<4><<<grid(4), block>>>(x, max, sum, cols, out, rows, cols); }, 8.0 * n, ref, out,
        n);
    report(
        "reads/8", [&] { softmaxReads<8><<<grid(8), block>>>(x, max, sum, cols, out, rows, cols); }, 8.0 * n, ref, out,
        n);
    report(
        "whole/8", [&] { softmax<8, true><<<grid(8), block>>>(x, max, sum, cols, out, rows, cols); }, 8.0 * n, ref, out,
        n);
    for (float* p : {x, max, sum, ref, out}) CHECK(cudaFree(p));
  }
  {
    const int B = 112, F = 64, S = 262144;
    const long long n = (long long)B * F * S;
    float *x = buffer(n, -1, 1, 13), *r = buffer((long long)B * S, 0.5f, 0.6f, 14);
    float *ref = buffer(n, 0, 0, 15), *out = buffer(n, 0, 0, 16);
    std::printf("RMS norm's normalize, %d x %d x %d (block 256)\n", B, F, S);
    auto grid = [&](int items) { return dim3((S + 256 * items - 1) / (256 * items), F, B); };
    report(
        "emitted/4", [&] { rmsNorm<4, false><<<grid(4), 256>>>(x, r, F, S, ref, B, F, S); }, 8.0 * n, nullptr, nullptr,
        0);
    report(
        "whole/4", [&] { rmsNorm<4, true><<<grid(4), 256>>>(x, r, F, S, out, B, F, S); }, 8.0 * n, ref, out, n);
    report(
        "reads/4", [&] { rmsNormReads<4><<<grid(4), 256>>>(x, r, F, S, out, B, F, S); }, 8.0 * n, ref, out, n);
    report(
        "reads/8", [&] { rmsNormReads<8><<<grid(8), 256>>>(x, r, F, S, out, B, F, S); }, 8.0 * n, ref, out, n);
    report(
        "whole/8", [&] { rmsNorm<8, true><<<grid(8), 256>>>(x, r, F, S, out, B, F, S); }, 8.0 * n, ref, out, n);
    for (float* p : {x, r, ref, out}) CHECK(cudaFree(p));
  }
  return 0;
}
