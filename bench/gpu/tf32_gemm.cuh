// What the TF32 harnesses (tf32_variants.cu, wgmma_variants.cu) share: the GEMM C = A·B of
// row-major fp32 matrices at 4096³ they time, its inputs on the device, and the report of a form
// (the median of 10 launches, TFLOP/s, and the largest error against a double-precision reference
// at 256 sampled outputs, relative to the sum of the products' magnitudes; an output left NaN, or
// never written over the poisoned C, reports an infinite error).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cuda_check.cuh"

namespace tf32gemm {

// An fp32 operand as the tensor cores take it: rounded to tf32 (cvt.rna, as cuBLAS's rounding
// mode does), or its bits as they are (the tensor cores then ignore the low 13 bits).
template <bool kRound> __device__ __forceinline__ unsigned tf32(float x) {
  unsigned r;
  if (kRound) asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  else r = __float_as_uint(x);
  return r;
}

// A form: C = A·B for (A, B, C, M, N, K), with `shared` bytes of dynamic shared memory.
using Kernel = void (*)(const float*, const float*, float*, int, int, int);
struct Variant {
  const char* name;
  Kernel kernel;
  int shared;
};

class Gemm {
 public:
  static constexpr int M = 4096, N = 4096, K = 4096;

  Gemm() : ha_((size_t)M * K), hb_((size_t)K * N), hc_((size_t)M * N) {
    unsigned s = 161803u;
    auto next = [&] {
      s = s * 1664525u + 1013904223u;
      return (float)(s >> 8) / 8388608.0f - 1.0f;
    };
    for (float& x : ha_) x = next();
    for (float& x : hb_) x = next();
    CHECK(cudaMalloc(&a, ha_.size() * 4));
    CHECK(cudaMalloc(&b, hb_.size() * 4));
    CHECK(cudaMalloc(&c, hc_.size() * 4));
    CHECK(cudaMemcpy(a, ha_.data(), ha_.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb_.data(), hb_.size() * 4, cudaMemcpyHostToDevice));
  }

  // The time of `launch` and the largest error of what it leaves in c (poisoned before).
  template <typename Launch> void report(const char* name, Launch&& launch) {
    CHECK(cudaMemset(c, 0xff, hc_.size() * 4));
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const double ms = medianMs(launch, 10, 0);
    CHECK(cudaMemcpy(hc_.data(), c, hc_.size() * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int q = 0; q < 256; ++q) {
      const int i = (q * 977) % M, j = (q * 131 + 7) % N;
      double want = 0, scale = 0;
      for (int k = 0; k < K; ++k) {
        const double p = (double)ha_[(size_t)i * K + k] * hb_[(size_t)k * N + j];
        want += p;
        scale += std::fabs(p);
      }
      const double e = std::fabs(hc_[(size_t)i * N + j] - want) / scale;
      worst = std::isnan(e) ? INFINITY : std::max(worst, e);
    }
    std::printf("%-36s %.3f ms  %6.1f TFLOP/s  max error %.2e of the products' magnitudes\n", name, ms,
                2.0 * M * N * K / (ms * 1e9), worst);
  }

  // Each form on `grid` x `threads`, its dynamic shared memory allowed first.
  template <size_t V> void run(const Variant (&variants)[V], dim3 grid, int threads) {
    for (const auto& [name, kernel, shared] : variants) {
      CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
      report(name, [&, k = kernel, bytes = shared] { k<<<grid, threads, bytes>>>(a, b, c, M, N, K); });
    }
  }

  float *a = nullptr, *b = nullptr, *c = nullptr;

 private:
  std::vector<float> ha_, hb_, hc_;
};

}  // namespace tf32gemm
