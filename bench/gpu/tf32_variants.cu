// How fast a tensor-core contraction can be when written the way culift's entries are (warp-level
// `mma.sync`, tiles copied with `cp.async`), before the opt-in TF32 entries are built: a GEMM
// C = A·B of fp32 matrices with TF32 products and fp32 sums, block tiles of 128 x 128 x 32 in
// shared memory (two stages), eight warps of 64 x 32 outputs each, `mma.sync.m16n8k8` (TF32).
// Each product rounds its operands to TF32 (`cvt.rna.tf32.f32`, as cuBLAS does) or takes their
// bits as they are (the tensor cores then ignore the low 13 bits of the mantissa).
//
// The entry culift emits for the benchmark's GemmCellTf32 (`GemmCellTf32_tc128`: 128 x 128 x 16
// tiles, three in flight by 4-byte copies, eight warps of 64 x 32; at 4096³ every block runs its
// whole-tile form) is timed beside them, alpha 1 and beta 0.
//
// On the GPU machine, `HARNESSES=tf32 OUT=... scripts/gpu-harnesses.sh` builds and runs it;
// standalone:
//
//   culift emit bench/gpu/blas_cells.hpp -o .gpu/blas.cu -- -Iinclude   (development machine)
//   nvcc -O3 -arch=sm_90 -I.gpu -Ibench/gpu -o tf32_variants bench/gpu/tf32_variants.cu && ./tf32_variants
//
// Beside the form, what each of its choices is worth, one at a time (rounded operands): k of 16 a
// stage (the entry's), and A, B or both copied 4 bytes at a time (the entry's copies, each thread's
// elements a constant step apart), into the same layouts. Every form holds 128 registers without
// spills (two blocks a multiprocessor, as the entry).
//
// Each line: the variant, the median of 10 launches at 4096³, TFLOP/s, and the largest error
// against a double-precision reference at 256 sampled outputs, relative to the sum of the
// products' magnitudes (TF32's unit roundoff is 2^-11 ≈ 4.9e-4).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "blas.cu"

#include "cuda_check.cuh"
#include "tf32_gemm.cuh"

namespace {

constexpr int kBm = 128, kBn = 128, kThreads = 256;
constexpr int kBpitch = kBn + 8;  // B tile row (n) pitch
// A tile row (k) pitch in floats (conflict-free fragment loads), the floats of a stage of each.
template <int BK> __host__ __device__ constexpr int aPitch() { return BK + 4; }
template <int BK> __host__ __device__ constexpr int aFloats() { return kBm * aPitch<BK>(); }
template <int BK> __host__ __device__ constexpr int bFloats() { return BK * kBpitch; }
template <int BK> constexpr int sharedBytes() { return 2 * (aFloats<BK>() + bFloats<BK>()) * 4; }

__device__ __forceinline__ void copy16(void* shared, const void* global) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(global));
}
__device__ __forceinline__ void copy4(void* shared, const void* global) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(global));
}

using tf32gemm::tf32;

__device__ __forceinline__ void mma(float (&d)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// A: M x K row-major, B: K x N row-major, C: M x N row-major; M, N multiples of 128, K of BK.
// BK: the k of a stage (32, or 16 as the entry); kVecA, kVecB: the operand copied 16 bytes at a time
// (else 4, as the entry copies), into the same layout.
template <bool kRound, int BK = 32, bool kVecA = true, bool kVecB = true> __global__ void __launch_bounds__(kThreads, 2)
    gemmTf32(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  constexpr int kBk = BK, kApitch = aPitch<BK>(), kAfloats = aFloats<BK>(), kBfloats = bFloats<BK>();
  extern __shared__ __align__(16) float smem[];
  float* const As = smem;                 // stage s at As + s * kAfloats
  float* const Bs = smem + 2 * kAfloats;  // stage s at Bs + s * kBfloats
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  const int wm = (warp / 4) * 64, wn = (warp % 4) * 32;  // the warp's 64 x 32 outputs in the tile
  const int m0 = blockIdx.y * kBm, n0 = blockIdx.x * kBn;
  auto load = [&](int stage, int k0) {
    if constexpr (kVecA) {
#pragma unroll
      for (int r = 0; r < BK / 8; ++r) {  // A: 128 rows x BK / 4 chunks of 16 bytes
        const int c = tid + r * kThreads, row = c / (BK / 4), col = (c % (BK / 4)) * 4;
        copy16(As + stage * kAfloats + row * kApitch + col, A + (long long)(m0 + row) * K + k0 + col);
      }
    } else {
      // A: 128 rows x BK elements, each thread's a constant step apart (as the entry steps them).
      const int row = tid / BK, col = tid % BK;
      const float* p = A + (long long)(m0 + row) * K + k0 + col;
#pragma unroll
      for (int r = 0; r < BK / 2; ++r)
        copy4(As + stage * kAfloats + (row + r * (kThreads / BK)) * kApitch + col,
              p + (long long)r * (kThreads / BK) * K);
    }
    if constexpr (kVecB) {
#pragma unroll
      for (int r = 0; r < BK / 8; ++r) {  // B: BK rows x 32 chunks
        const int c = tid + r * kThreads, row = c / 32, col = (c % 32) * 4;
        copy16(Bs + stage * kBfloats + row * kBpitch + col, B + (long long)(k0 + row) * N + n0 + col);
      }
    } else {
      // B: BK rows x 128 elements, each thread's a constant step apart.
      const int row = tid / 128, col = tid % 128;
      const float* p = B + (long long)(k0 + row) * N + n0 + col;
#pragma unroll
      for (int r = 0; r < BK / 2; ++r)
        copy4(Bs + stage * kBfloats + (row + r * 2) * kBpitch + col, p + (long long)r * 2 * N);
    }
    asm volatile("cp.async.commit_group;");
  };
  float acc[4][4][4] = {};
  load(0, 0);
  const int tiles = K / kBk;
  for (int kt = 0; kt < tiles; ++kt) {
    const int stage = kt & 1;
    if (kt + 1 < tiles) {
      load(stage ^ 1, (kt + 1) * kBk);
      asm volatile("cp.async.wait_group 1;");
    } else {
      asm volatile("cp.async.wait_group 0;");
    }
    __syncthreads();
    const float* a = As + stage * kAfloats;
    const float* b = Bs + stage * kBfloats;
#pragma unroll
    for (int kk = 0; kk < kBk; kk += 8) {
      unsigned af[4][4], bf[4][2];
#pragma unroll
      for (int mi = 0; mi < 4; ++mi) {
        const float* p = a + (wm + mi * 16 + g) * kApitch + kk + t;
        af[mi][0] = tf32<kRound>(p[0]);
        af[mi][1] = tf32<kRound>(p[8 * kApitch]);
        af[mi][2] = tf32<kRound>(p[4]);
        af[mi][3] = tf32<kRound>(p[8 * kApitch + 4]);
      }
#pragma unroll
      for (int ni = 0; ni < 4; ++ni) {
        const float* p = b + (kk + t) * kBpitch + wn + ni * 8 + g;
        bf[ni][0] = tf32<kRound>(p[0]);
        bf[ni][1] = tf32<kRound>(p[4 * kBpitch]);
      }
#pragma unroll
      for (int mi = 0; mi < 4; ++mi)
#pragma unroll
        for (int ni = 0; ni < 4; ++ni) mma(acc[mi][ni], af[mi], bf[ni]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int mi = 0; mi < 4; ++mi)
#pragma unroll
    for (int ni = 0; ni < 4; ++ni) {
      const int row = m0 + wm + mi * 16 + g, col = n0 + wn + ni * 8 + 2 * t;
      *reinterpret_cast<float2*>(C + (long long)row * N + col) = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
      *reinterpret_cast<float2*>(C + (long long)(row + 8) * N + col) = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
    }
}

}  // namespace

int main() {
  tf32gemm::Gemm gemm;
  const int M = gemm.M, N = gemm.N, K = gemm.K;
  // The form, then what each of its choices is worth (rounded operands, as the entry): k of 16 a
  // stage, and either operand copied 4 bytes at a time.
  const tf32gemm::Variant variants[] = {{"tf32 rounded (cvt.rna)", gemmTf32<true>, sharedBytes<32>()},
                                        {"tf32 bits as they are", gemmTf32<false>, sharedBytes<32>()},
                                        {"rounded, k 16 a stage", gemmTf32<true, 16>, sharedBytes<16>()},
                                        {"rounded, A by 4 bytes", gemmTf32<true, 32, false, true>, sharedBytes<32>()},
                                        {"rounded, B by 4 bytes", gemmTf32<true, 32, true, false>, sharedBytes<32>()},
                                        {"rounded, both by 4 bytes", gemmTf32<true, 32, false, false>,
                                         sharedBytes<32>()}};
  const dim3 grid(N / kBn, M / kBm);
  gemm.run(variants, grid, kThreads);
  // The emitted entry: its stages in dynamic shared memory (3 x 16 x 136 floats of each operand, as
  // its declaration says), the outputs alpha * sum + beta * C with beta 0.
  constexpr int kEntryShared = 2 * 3 * 16 * 136 * 4;
  float* c0;
  CHECK(cudaMalloc(&c0, (size_t)M * N * 4));
  CHECK(cudaMemset(c0, 0, (size_t)M * N * 4));
  CHECK(cudaFuncSetAttribute(GemmCellTf32_tc128, cudaFuncAttributeMaxDynamicSharedMemorySize, kEntryShared));
  gemm.report("GemmCellTf32_tc128", [&] {
    GemmCellTf32_tc128<<<grid, 256, kEntryShared>>>(gemm.a, gemm.b, c0, 1.0f, 0.0f, K, N, gemm.c, M, N, 0);
  });
  return 0;
}
