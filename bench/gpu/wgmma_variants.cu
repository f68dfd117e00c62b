// How fast the opt-in TF32 contraction can be on Hopper's warpgroup tensor-core instructions
// (`wgmma.mma_async`, sm_90a) when its tiles are copied the way culift's entries copy them
// (`cp.async` of 16 bytes, no bulk tensor copies), against the `mma.sync` forms of
// tf32_variants.cu: a GEMM C = A·B of row-major fp32 matrices with TF32 products and fp32 sums.
//
// The instruction reads a tf32 operand from shared memory only with k contiguous ("K-major"); B
// (k x n, n contiguous) is not, so the roles are turned: the warpgroup multiplies Bᵀ (its
// fragments loaded from a staged B tile into registers, rounded by `cvt.rna` as the entries do)
// by Aᵀ (A's tile as it lies, k contiguous, from shared memory through a descriptor with the
// 128-byte swizzle), and holds Cᵀ's fragments: a block of 256 threads (two warpgroups) computes
// 256 rows of A x 128 columns of B, each warpgroup 64 columns x 256 rows with
// `wgmma.m64n256k8`, 128 sums a thread. A's operand enters the product as its top 19 bits (the
// tensor cores drop the rest); B's is rounded.
//
// ST stages of k 32 (A's 32 KB and B's 17 KB each) in dynamic shared memory, ST - 2 copied ahead;
// each thread waits for its copies, fences them for the tensor cores' reads
// (`fence.proxy.async`), and a barrier opens the stage; the multiplies of one stage run while the
// next stage's fragments load. kInFlight 1 keeps one group of `wgmma` in flight while the next
// stage's fragments load; the device assembler then serializes the multiplies (its warning C7513:
// ordinary instructions define a `wgmma`'s input registers inside the group's span), so the forms
// wait for each stage's multiplies (kInFlight 0) and that one is timed beside them.
//
// Then the copies taken off the multiplying warps: wgmmaGemmWS (a third warpgroup issues the
// `cp.async` copies and signals each stage on an mbarrier; the two multiplying warpgroups free it on
// another, no block-wide barrier in the loop), wgmmaGemmTma (the same with bulk tensor copies, TMA,
// issued by one thread: A's 256 x 32 tile and B's as four 32 x 32 boxes, both with the 128-byte
// swizzle, B's fragments read through it; the tensor maps encoded on the host through
// cudaGetDriverEntryPoint) and wgmmaGemmTmaSync (the bulk tensor copies from thread 0 inside the
// entry's own loop of 256 threads and a barrier a stage, as an emitted entry could take them).
//
// On the GPU machine, `HARNESSES=wgmma OUT=... scripts/gpu-harnesses.sh` builds and runs it;
// standalone:
//
//   culift emit bench/gpu/blas_cells.hpp -o .gpu/blas.cu -- -Iinclude   (development machine)
//   nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -I.gpu -Ibench/gpu -o wgmma_variants bench/gpu/wgmma_variants.cu
//
// After the hand-written forms, the entries culift emits on warpgroups (`GemmCellTf32_wg256` and
// `_wg128`, from blas.cu) on the same inputs.
//
// Each line: the variant, the median of 10 launches at 4096³, TFLOP/s, and the largest error
// against a double-precision reference at 256 sampled outputs, relative to the sum of the
// products' magnitudes (TF32's unit roundoff is 2^-11 ≈ 4.9e-4).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "blas.cu"

#include "cuda_check.cuh"
#include "tf32_gemm.cuh"

namespace {

constexpr int kBM = 256, kBN = 128, kBK = 32, kThreads = 256;
constexpr int kPitchB = kBN + 8;            // a staged row of B, in floats (fragment loads in 32 banks)
constexpr int kAStage = kBM * kBK * 4;      // bytes: 256 rows of 128 bytes, swizzled
constexpr int kBStage = kBK * kPitchB * 4;  // bytes
template <int ST> constexpr int sharedBytes() { return ST * (kAStage + kBStage) + 1024; }  // + alignment

__device__ __forceinline__ void copy16(unsigned shared, const void* global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(shared), "l"(global));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int N> __device__ __forceinline__ void waitCopies() { asm volatile("cp.async.wait_group %0;" ::"n"(N)); }
__device__ __forceinline__ void fenceForTensorCores() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
__device__ __forceinline__ void wgmmaFence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmmaCommit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmmaWait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

// A shared-memory matrix descriptor: K-major rows of 128 bytes, 128-byte swizzle (16-byte chunk c
// of row r at chunk c ^ (r % 8), in atoms of 8 rows = 1024 bytes, 1024-byte aligned), the
// start address and the stride between atoms (1024 bytes) in units of 16 bytes.
__device__ __forceinline__ unsigned long long descriptor(unsigned address) {
  return (unsigned long long)((address & 0x3FFFF) >> 4) | (1ull << 16) | (64ull << 32) | (1ull << 62);
}

using tf32gemm::tf32;

// The 128 sums of a thread of wgmma.m64n256k8, as asm operands.
#define SUMS128                                                                                                       \
  "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),         \
      "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),          \
      "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),         \
      "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),         \
      "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),         \
      "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),         \
      "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),         \
      "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),         \
      "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),         \
      "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),         \
      "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),         \
      "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]),         \
      "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),    \
      "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), \
      "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), \
      "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

// D (64 x 256, fp32, 128 a thread) += A (64 x 8, tf32, 4 registers a thread) · B (8 x 256, from
// shared memory through desc).
__device__ __forceinline__ void wgmmaTf32m64n256k8(float (&d)[128], unsigned a0, unsigned a1, unsigned a2, unsigned a3,
                                                   unsigned long long desc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
      : SUMS128
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(desc));
}

// D (64 x 256) += A (64 x 8) · B (8 x 256), both from shared memory through descriptors.
__device__ __forceinline__ void wgmmaTf32m64n256k8SS(float (&d)[128], unsigned long long descA,
                                                     unsigned long long descB) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, %128, %129, p, 1, 1;\n}\n"
      : SUMS128
      : "l"(descA), "l"(descB));
}

// B's element (k r, column n of the block's) in a stage of rows of kPitchB, and in a stage of four
// boxes of 32 columns x 32 k as a bulk tensor copy with the 128-byte swizzle leaves them.
__device__ __forceinline__ int padded(int r, int n) { return r * kPitchB + n; }
__device__ __forceinline__ int boxed(int r, int n) {
  return (n / 32) * 1024 + r * 32 + ((((n % 32) / 4) ^ (r % 8)) << 2) + n % 4;
}

// One stage's products: the lane's fragments of B's stage `b` (its warp's columns from nb, rounded
// or as they are), then the four multiplies by A's stage at `aStage`, committed, kInFlight groups
// left in flight.
template <bool kRound, int kInFlight, typename At>
__device__ __forceinline__ void multiplyStage(float (&d)[128], unsigned (&f)[4][4], const float* b, At at, int nb,
                                              int g, int t, unsigned aStage) {
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    f[s][0] = tf32<kRound>(b[at(8 * s + t, nb + g)]);
    f[s][1] = tf32<kRound>(b[at(8 * s + t, nb + g + 8)]);
    f[s][2] = tf32<kRound>(b[at(8 * s + t + 4, nb + g)]);
    f[s][3] = tf32<kRound>(b[at(8 * s + t + 4, nb + g + 8)]);
  }
  wgmmaFence();
#pragma unroll
  for (int s = 0; s < 4; ++s) wgmmaTf32m64n256k8(d, f[s][0], f[s][1], f[s][2], f[s][3], descriptor(aStage + s * 32));
  wgmmaCommit();
  wgmmaWait<kInFlight>();
}

// The lane's sums into C: d[4j + q] is Cᵀ's row nb + g + 8 (q / 2), column 8 j + 2 t + q % 2.
__device__ __forceinline__ void storeC(float* C, const float (&d)[128], int m0, int n0, int nb, int g, int t, int N) {
#pragma unroll
  for (int j = 0; j < 32; ++j)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int n = n0 + nb + g + 8 * (q / 2), m = m0 + 8 * j + 2 * t + q % 2;
      C[(long long)m * N + n] = d[4 * j + q];
    }
}

template <int ST, bool kRound, int kInFlight> __global__ void __launch_bounds__(kThreads, 1)
    wgmmaGemm(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  extern __shared__ unsigned char raw[];
  const unsigned rawAddress = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  const unsigned aBase = (rawAddress + 1023) & ~1023u;  // ST stages of A, each 1024-byte aligned
  const unsigned bBase = aBase + ST * kAStage;          // ST stages of B: [32][kPitchB] floats
  const float* sB = reinterpret_cast<const float*>(raw + (bBase - rawAddress));
  const int tid = threadIdx.x, wg = tid / 128, warp = tid % 128 / 32, lane = tid % 32;
  const int g = lane / 4, t = lane % 4;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int nb = wg * 64 + warp * 16;  // this warp's 16 columns of B (rows of the product Cᵀ)
  auto load = [&](int kt, int st) {
#pragma unroll
    for (int u = 0; u < kBM * kBK / 4 / kThreads; ++u) {
      const int e = tid + u * kThreads, r = e / 8, c = e % 8;
      copy16(aBase + st * kAStage + r * 128 + ((c ^ (r % 8)) << 4), A + (long long)(m0 + r) * K + kt + c * 4);
    }
#pragma unroll
    for (int u = 0; u < kBK * kBN / 4 / kThreads; ++u) {
      const int e = tid + u * kThreads, r = e / (kBN / 4), c = e % (kBN / 4);
      copy16(bBase + st * kBStage + (r * kPitchB + c * 4) * 4, B + (long long)(kt + r) * N + n0 + c * 4);
    }
  };
  float d[128];
#pragma unroll
  for (int q = 0; q < 128; ++q) d[q] = 0.0f;
  constexpr int kAhead = ST - 2;
  const int nk = K / kBK;
#pragma unroll
  for (int s = 0; s < kAhead; ++s) {
    if (s < nk) load(s * kBK, s);
    commit();
  }
  unsigned f0[4][4], f1[4][4];
  auto step = [&](int kt, unsigned(&f)[4][4]) {
    waitCopies<kAhead - 1>();
    fenceForTensorCores();
    __syncthreads();
    {
      const int next = kt + kAhead;
      if (next < nk) load(next * kBK, next % ST);
      commit();
    }
    const int st = kt % ST;
    multiplyStage<kRound, kInFlight>(d, f, sB + st * (kBK * kPitchB), padded, nb, g, t, aBase + st * kAStage);
  };
#pragma unroll 1
  for (int kt = 0; kt < nk; kt += 2) {
    step(kt, f0);
    if (kt + 1 < nk) step(kt + 1, f1);
  }
  wgmmaWait<0>();
  storeC(C, d, m0, n0, nb, g, t, N);
}

// Warp-specialized: a third warpgroup only copies (`cp.async` of 16 bytes, each stage's
// completion signalled on an mbarrier by `cp.async.mbarrier.arrive.noinc`), the two others only
// multiply (each waits for a stage's mbarrier, loads its fragments, multiplies, and frees the
// stage on a second mbarrier once its multiplies are done): no block-wide barrier in the loop, so
// the two multiplying warpgroups drift apart and one's fragment loads overlap the other's
// multiplies. Registers moved from the copying warpgroup to the multiplying ones by `setmaxnreg`.
// kInFlight 1: one stage's multiplies kept in flight (its stage freed a stage later).
constexpr int kWsThreads = 384;
template <int ST> constexpr int wsSharedBytes() { return ST * (kAStage + kBStage) + 1024; }

__device__ __forceinline__ void barrierInit(unsigned at, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(at), "r"(count));
}
__device__ __forceinline__ void barrierWait(unsigned at, unsigned parity) {
  asm volatile(
      "{\n.reg .pred p;\nWAIT_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
      "@!p bra WAIT_%=;\n}\n" ::"r"(at),
      "r"(parity)
      : "memory");
}
__device__ __forceinline__ void barrierArrive(unsigned at) {
  asm volatile("{\n.reg .b64 s;\nmbarrier.arrive.shared::cta.b64 s, [%0];\n}\n" ::"r"(at) : "memory");
}
__device__ __forceinline__ void copiesArrive(unsigned at) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(at) : "memory");
}

template <int ST, int kInFlight, int kProducerRegs, int kConsumerRegs, bool kFakeSS = false>
__global__ void __launch_bounds__(kWsThreads, 1)
    wgmmaGemmWS(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) unsigned long long bars[2 * ST];  // full[ST], then empty[ST]
  const unsigned rawAddress = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  const unsigned aBase = (rawAddress + 1023) & ~1023u;
  const unsigned bBase = aBase + ST * kAStage;
  const float* sB = reinterpret_cast<const float*>(raw + (bBase - rawAddress));
  const unsigned full = static_cast<unsigned>(__cvta_generic_to_shared(bars)), empty = full + 8 * ST;
  const int tid = threadIdx.x, wg = tid / 128;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int nk = K / kBK;
  if (tid == 0) {
    for (int s = 0; s < ST; ++s) {
      barrierInit(full + 8 * s, 128);
      barrierInit(empty + 8 * s, 256);
    }
  }
  __syncthreads();
  if (wg == 2) {  // the copies
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(kProducerRegs));
    const int p = tid - 256;
#pragma unroll 1
    for (int kt = 0; kt < nk; ++kt) {
      const int st = kt % ST;
      if (kt >= ST) barrierWait(empty + 8 * st, (kt / ST - 1) & 1);
      const int k0 = kt * kBK;
      {
        // A: rows p / 8 + 16 u, 16 bytes c = p % 8 of each (the swizzle's chunk c ^ (r % 8) = c ^ (p / 8 % 8)).
        const int r = p / 8, c = p % 8;
        const float* a = A + (long long)(m0 + r) * K + k0 + c * 4;
        unsigned to = aBase + st * kAStage + r * 128 + ((c ^ (r % 8)) << 4);
#pragma unroll 1
        for (int u = 0; u < kBM * kBK / 4 / 128; ++u, a += 16LL * K, to += 16 * 128) copy16(to, a);
      }
      {
        const int r = p / (kBN / 4), c = p % (kBN / 4);
        const float* b = B + (long long)(k0 + r) * N + n0 + c * 4;
        unsigned to = bBase + st * kBStage + (r * kPitchB + c * 4) * 4;
#pragma unroll 1
        for (int u = 0; u < kBK * kBN / 4 / 128; ++u, b += 4LL * N, to += 4 * kPitchB * 4) copy16(to, b);
      }
      copiesArrive(full + 8 * st);
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(kConsumerRegs));
  const int warp = tid % 128 / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  const int nb = wg * 64 + warp * 16;
  float d[128];
#pragma unroll
  for (int q = 0; q < 128; ++q) d[q] = 0.0f;
  unsigned f0[4][4], f1[4][4];
  auto step = [&](int kt, unsigned(&f)[4][4]) {
    const int st = kt % ST;
    barrierWait(full + 8 * st, (kt / ST) & 1);
    fenceForTensorCores();
    if (kFakeSS) {  // timing only: B's stage read as if it were Bᵀ, k contiguous (wrong products)
      wgmmaFence();
#pragma unroll
      for (int s = 0; s < 4; ++s)
        wgmmaTf32m64n256k8SS(d, descriptor(bBase + st * kBStage + (wg % 2) * 8192 + s * 32),
                             descriptor(aBase + st * kAStage + s * 32));
      wgmmaCommit();
      wgmmaWait<kInFlight>();
      if (kInFlight == 0) barrierArrive(empty + 8 * st);
      else if (kt > 0) barrierArrive(empty + 8 * ((kt - 1) % ST));
      return;
    }
    multiplyStage<true, kInFlight>(d, f, sB + st * (kBK * kPitchB), padded, nb, g, t, aBase + st * kAStage);
    if (kInFlight == 0) barrierArrive(empty + 8 * st);
    else if (kt > 0) barrierArrive(empty + 8 * ((kt - 1) % ST));
  };
#pragma unroll 1
  for (int kt = 0; kt < nk; kt += 2) {
    step(kt, f0);
    if (kt + 1 < nk) step(kt + 1, f1);
  }
  wgmmaWait<0>();
  storeC(C, d, m0, n0, nb, g, t, N);
}

// storeC with the entry's epilogue: C = alpha * sum + beta * Cin, Cin read at the same place.
__device__ __forceinline__ void storeCEpilogue(float* C, const float* __restrict__ Cin, float alpha, float beta,
                                               const float (&d)[128], int m0, int n0, int nb, int g, int t, int N) {
#pragma unroll
  for (int j = 0; j < 32; ++j)
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int n = n0 + nb + g + 8 * (q / 2), m = m0 + 8 * j + 2 * t + q % 2;
      C[(long long)m * N + n] = alpha * d[4 * j + q] + beta * Cin[(long long)m * N + n];
    }
}

// Bulk tensor copies (TMA): one thread of the copying warpgroup fills a stage with one copy of A's
// 256 x 32 tile and four of B's 32 x 32 (the 128-byte swizzle on both) and tells the stage's
// mbarrier how many bytes to expect; the multiplying warpgroups as in wgmmaGemmWS, B's fragments
// read through the swizzle. kInFlight as there.
constexpr int kTmaBStage = kBK * kBN * 4;  // bytes: 32 rows of 128 columns, as 4 boxes of 32 x 32 (4 KB each)
template <int ST> constexpr int tmaSharedBytes() { return ST * (kAStage + kTmaBStage) + 1024; }

__device__ __forceinline__ void expectBytes(unsigned at, unsigned bytes) {
  asm volatile("{\n.reg .b64 s;\nmbarrier.arrive.expect_tx.shared::cta.b64 s, [%0], %1;\n}\n" ::"r"(at), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void tensorCopy(unsigned to, const CUtensorMap* map, int c0, int c1, unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
          "r"(to),
      "l"(reinterpret_cast<unsigned long long>(map)), "r"(c0), "r"(c1), "r"(bar)
      : "memory");
}

template <int ST, int kInFlight, bool kEpilogue = false> __global__ void __launch_bounds__(kWsThreads, 1)
    wgmmaGemmTma(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
                 float* __restrict__ C, int M, int N, int K, const float* __restrict__ Cin = nullptr,
                 float alpha = 1.0f, float beta = 0.0f) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) unsigned long long bars[2 * ST];
  const unsigned rawAddress = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  const unsigned aBase = (rawAddress + 1023) & ~1023u;
  const unsigned bBase = aBase + ST * kAStage;
  const float* sB = reinterpret_cast<const float*>(raw + (bBase - rawAddress));
  const unsigned full = static_cast<unsigned>(__cvta_generic_to_shared(bars)), empty = full + 8 * ST;
  const int tid = threadIdx.x, wg = tid / 128;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int nk = K / kBK;
  if (tid == 0) {
    for (int s = 0; s < ST; ++s) {
      barrierInit(full + 8 * s, 1);
      barrierInit(empty + 8 * s, 256);
    }
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (wg == 2) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
    if (tid == 256) {
#pragma unroll 1
      for (int kt = 0; kt < nk; ++kt) {
        const int st = kt % ST;
        if (kt >= ST) barrierWait(empty + 8 * st, (kt / ST - 1) & 1);
        expectBytes(full + 8 * st, kAStage + kTmaBStage);
        tensorCopy(aBase + st * kAStage, &mapA, kt * kBK, m0, full + 8 * st);
#pragma unroll
        for (int q = 0; q < 4; ++q)
          tensorCopy(bBase + st * kTmaBStage + q * 4096, &mapB, n0 + 32 * q, kt * kBK, full + 8 * st);
      }
    }
    return;
  }
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  const int warp = tid % 128 / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  const int nb = wg * 64 + warp * 16;
  float d[128];
#pragma unroll
  for (int q = 0; q < 128; ++q) d[q] = 0.0f;
  unsigned f0[4][4], f1[4][4];
  auto step = [&](int kt, unsigned(&f)[4][4]) {
    const int st = kt % ST;
    barrierWait(full + 8 * st, (kt / ST) & 1);
    multiplyStage<true, kInFlight>(d, f, sB + st * (kTmaBStage / 4), boxed, nb, g, t, aBase + st * kAStage);
    if (kInFlight == 0) barrierArrive(empty + 8 * st);
    else if (kt > 0) barrierArrive(empty + 8 * ((kt - 1) % ST));
  };
#pragma unroll 1
  for (int kt = 0; kt < nk; kt += 2) {
    step(kt, f0);
    if (kt + 1 < nk) step(kt + 1, f1);
  }
  wgmmaWait<0>();
  if constexpr (kEpilogue) storeCEpilogue(C, Cin, alpha, beta, d, m0, n0, nb, g, t, N);
  else storeC(C, d, m0, n0, nb, g, t, N);
}

// Bulk tensor copies without a copying warpgroup: the entry's own loop (256 threads, a barrier a
// stage) with each stage's copies issued by thread 0 as bulk tensor copies on the stage's mbarrier
// (ST - 1 stages ahead), which every thread waits for instead of its own `cp.async` groups.
template <int ST> __global__ void __launch_bounds__(kThreads, 1)
    wgmmaGemmTmaSync(const __grid_constant__ CUtensorMap mapA, const __grid_constant__ CUtensorMap mapB,
                     float* __restrict__ C, int M, int N, int K) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) unsigned long long bars[ST];
  const unsigned rawAddress = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  const unsigned aBase = (rawAddress + 1023) & ~1023u;
  const unsigned bBase = aBase + ST * kAStage;
  const float* sB = reinterpret_cast<const float*>(raw + (bBase - rawAddress));
  const unsigned full = static_cast<unsigned>(__cvta_generic_to_shared(bars));
  const int tid = threadIdx.x, wg = tid / 128;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int nk = K / kBK;
  auto load = [&](int kt) {
    const int st = kt % ST;
    expectBytes(full + 8 * st, kAStage + kTmaBStage);
    tensorCopy(aBase + st * kAStage, &mapA, kt * kBK, m0, full + 8 * st);
#pragma unroll
    for (int q = 0; q < 4; ++q)
      tensorCopy(bBase + st * kTmaBStage + q * 4096, &mapB, n0 + 32 * q, kt * kBK, full + 8 * st);
  };
  if (tid == 0) {
    for (int s = 0; s < ST; ++s) barrierInit(full + 8 * s, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    for (int s = 0; s < ST - 1 && s < nk; ++s) load(s);
  }
  __syncthreads();
  const int warp = tid % 128 / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  const int nb = wg * 64 + warp * 16;
  float d[128];
#pragma unroll
  for (int q = 0; q < 128; ++q) d[q] = 0.0f;
#pragma unroll 1
  for (int kt = 0; kt < nk; ++kt) {
    const int st = kt % ST;
    barrierWait(full + 8 * st, (kt / ST) & 1);
    __syncthreads();  // every warpgroup done with the stage refilled next
    if (tid == 0 && kt + ST - 1 < nk) load(kt + ST - 1);
    unsigned f[4][4];
    multiplyStage<true, 0>(d, f, sB + st * (kTmaBStage / 4), boxed, nb, g, t, aBase + st * kAStage);
  }
  storeC(C, d, m0, n0, nb, g, t, N);
}

// A by bulk tensor copies from thread 0, B by every thread's `cp.async` of 16 bytes into rows of
// 136 (no bank conflicts in its fragment loads), inside the entry's own loop.
template <int ST> __global__ void __launch_bounds__(kThreads, 1)
    wgmmaGemmTmaA(const __grid_constant__ CUtensorMap mapA, const float* __restrict__ B, float* __restrict__ C, int M,
                  int N, int K) {
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) unsigned long long bars[ST];
  const unsigned rawAddress = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  const unsigned aBase = (rawAddress + 1023) & ~1023u;
  const unsigned bBase = aBase + ST * kAStage;
  const float* sB = reinterpret_cast<const float*>(raw + (bBase - rawAddress));
  const unsigned full = static_cast<unsigned>(__cvta_generic_to_shared(bars));
  const int tid = threadIdx.x, wg = tid / 128;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kBN;
  const int nk = K / kBK;
  auto load = [&](int kt) {
    const int st = kt % ST;
    if (tid == 0) {
      expectBytes(full + 8 * st, kAStage);
      tensorCopy(aBase + st * kAStage, &mapA, kt * kBK, m0, full + 8 * st);
    }
#pragma unroll
    for (int u = 0; u < kBK * kBN / 4 / kThreads; ++u) {
      const int e = tid + u * kThreads, r = e / (kBN / 4), c = e % (kBN / 4);
      copy16(bBase + st * kBStage + (r * kPitchB + c * 4) * 4, B + (long long)(kt * kBK + r) * N + n0 + c * 4);
    }
  };
  if (tid == 0) {
    for (int s = 0; s < ST; ++s) barrierInit(full + 8 * s, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  for (int s = 0; s < ST - 1; ++s) {
    if (s < nk) load(s);
    commit();
  }
  const int warp = tid % 128 / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
  const int nb = wg * 64 + warp * 16;
  float d[128];
#pragma unroll
  for (int q = 0; q < 128; ++q) d[q] = 0.0f;
#pragma unroll 1
  for (int kt = 0; kt < nk; ++kt) {
    const int st = kt % ST;
    waitCopies<ST - 2>();
    barrierWait(full + 8 * st, (kt / ST) & 1);
    __syncthreads();
    if (kt + ST - 1 < nk) load(kt + ST - 1);
    commit();
    unsigned f[4][4];
    multiplyStage<true, 0>(d, f, sB + st * (kBK * kPitchB), padded, nb, g, t, aBase + st * kAStage);
  }
  storeC(C, d, m0, n0, nb, g, t, N);
}

// A 2-D tensor map of a row-major rows x cols fp32 matrix, boxes of boxCols x boxRows, 128-byte swizzle.
CUtensorMap tensorMap(const float* base, int rows, int cols, int boxCols, int boxRows) {
  using Encode = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                              const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                              CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);
  static Encode encode = [] {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q;
    CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &f, cudaEnableDefault, &q));
    return reinterpret_cast<Encode>(f);
  }();
  CUtensorMap map;
  const cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)cols * 4};
  const cuuint32_t box[2] = {(cuuint32_t)boxCols, (cuuint32_t)boxRows}, unit[2] = {1, 1};
  const CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, const_cast<float*>(base), dims, strides, box,
                            unit, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                            CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    std::fprintf(stderr, "cuTensorMapEncodeTiled: %d\n", (int)r);
    std::exit(1);
  }
  return map;
}

// D (64 x 128, fp32, 64 a thread) += A (64 x 8, tf32) · B (8 x 128, tf32), both from shared memory through
// descriptors.
__device__ __forceinline__ void wgmmaTf32m64n128k8(float (&d)[64], unsigned long long descA, unsigned long long descB) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(descA), "l"(descB));
}

// Both operands from shared memory: A's tile as it lies (k contiguous, by `cp.async`) and B's tile
// turned to k contiguous on the way (each thread loads 16-byte groups of a row of B into registers
// one iteration ahead and stores their elements, rounded, into the swizzled rows of Bᵀ; a warp's
// 32 lanes take 32 values of k, so each store lands in 32 banks). A block of 512 threads (four
// warpgroups) computes 256 rows x 128 columns, each warpgroup 64 rows with `wgmma.m64n128k8`, 64
// sums a thread.
constexpr int kSsThreads = 512, kSsBN = 128;
constexpr int kSsBStage = kSsBN * kBK * 4;  // bytes: 128 rows of Bᵀ, 128 bytes each, swizzled
template <int ST> constexpr int ssSharedBytes() { return ST * (kAStage + kSsBStage) + 1024; }

template <int ST, bool kRound> __global__ void __launch_bounds__(kSsThreads, 1)
    wgmmaGemmSS(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N, int K) {
  extern __shared__ unsigned char raw[];
  const unsigned rawAddress = static_cast<unsigned>(__cvta_generic_to_shared(raw));
  const unsigned aBase = (rawAddress + 1023) & ~1023u;
  const unsigned bBase = aBase + ST * kAStage;
  const int tid = threadIdx.x, wg = tid / 128, warp = tid / 32, lane = tid % 32;
  const int g = lane % 32 / 4, t = lane % 4;
  const int m0 = blockIdx.y * kBM, n0 = blockIdx.x * kSsBN;
  auto loadA = [&](int kt, int st) {
#pragma unroll
    for (int u = 0; u < kBM * kBK / 4 / kSsThreads; ++u) {
      const int e = tid + u * kSsThreads, r = e / 8, c = e % 8;
      copy16(aBase + st * kAStage + r * 128 + ((c ^ (r % 8)) << 4), A + (long long)(m0 + r) * K + kt + c * 4);
    }
  };
  // B: lane = k of the stage, groups of 4 columns warp and warp + 16.
  float4 held[2];
  auto fetchB = [&](int kt) {
#pragma unroll
    for (int u = 0; u < 2; ++u)
      held[u] = *reinterpret_cast<const float4*>(B + (long long)(kt + lane) * N + n0 + 4 * (warp + 16 * u));
  };
  auto storeB = [&](int st) {
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      const float v[4] = {held[u].x, held[u].y, held[u].z, held[u].w};
#pragma unroll
      for (int c = 0; c < 4; ++c) {
        const int n = 4 * (warp + 16 * u) + c;
        const unsigned at = bBase + st * kSsBStage + n * 128 + ((((lane >> 2) ^ (n % 8))) << 4) + (lane & 3) * 4;
        asm volatile("st.shared.b32 [%0], %1;" ::"r"(at), "r"(tf32<kRound>(v[c])));
      }
    }
  };
  float d[64];
#pragma unroll
  for (int q = 0; q < 64; ++q) d[q] = 0.0f;
  constexpr int kAhead = ST - 2;
  const int nk = K / kBK;
#pragma unroll
  for (int s = 0; s < kAhead; ++s) {
    if (s < nk) {
      loadA(s * kBK, s);
      fetchB(s * kBK);
      storeB(s);
    }
    commit();
  }
  if (kAhead < nk) fetchB(kAhead * kBK);
#pragma unroll 1
  for (int kt = 0; kt < nk; ++kt) {
    waitCopies<kAhead - 1>();
    fenceForTensorCores();
    __syncthreads();
    const int next = kt + kAhead;
    if (next < nk) loadA(next * kBK, next % ST);
    commit();
    const int st = kt % ST;
    wgmmaFence();
#pragma unroll
    for (int s = 0; s < 4; ++s)
      wgmmaTf32m64n128k8(d, descriptor(aBase + st * kAStage + wg * 64 * 128 + s * 32),
                         descriptor(bBase + st * kSsBStage + s * 32));
    wgmmaCommit();
    if (next < nk) {
      storeB(next % ST);
      if (next + 1 < nk) fetchB((next + 1) * kBK);
    }
    wgmmaWait<1>();
  }
  wgmmaWait<0>();
  // d[4j + q]: row 64 wg + 16 (warp % 4) + g + 8 (q / 2), column 8 j + 2 t + q % 2.
#pragma unroll
  for (int j = 0; j < 16; ++j)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int m = m0 + wg * 64 + warp % 4 * 16 + g + 8 * h, n = n0 + 8 * j + 2 * t;
      *reinterpret_cast<float2*>(C + (long long)m * N + n) = make_float2(d[4 * j + 2 * h], d[4 * j + 2 * h + 1]);
    }
}

}  // namespace

int main() {
  tf32gemm::Gemm gemm;
  const tf32gemm::Variant variants[] = {{"wgmma, 4 stages, rounded", wgmmaGemm<4, true, 0>, sharedBytes<4>()},
                                        {"wgmma, 4 stages, as they are", wgmmaGemm<4, false, 0>, sharedBytes<4>()},
                                        {"wgmma, 3 stages, rounded", wgmmaGemm<3, true, 0>, sharedBytes<3>()},
                                        {"wgmma, 4 stages, 1 in flight", wgmmaGemm<4, true, 1>, sharedBytes<4>()}};
  gemm.run(variants, dim3(gemm.N / kBN, gemm.M / kBM), kThreads);
  const tf32gemm::Variant specialized[] = {
      {"wgmma, copies by a warpgroup, 4 stages", wgmmaGemmWS<4, 0, 40, 232>, wsSharedBytes<4>()},
      {"wgmma, copies by a warpgroup, 1 in flight", wgmmaGemmWS<4, 1, 40, 232>, wsSharedBytes<4>()},
      {"wgmma, copies by a warpgroup, 3 stages", wgmmaGemmWS<3, 0, 40, 232>, wsSharedBytes<3>()},
      {"wgmma, copies by a warpgroup, 56 + 224 registers", wgmmaGemmWS<4, 0, 56, 224>, wsSharedBytes<4>()},
      {"timing only: both from shared memory, 0 in flight", wgmmaGemmWS<4, 0, 40, 232, true>, wsSharedBytes<4>()},
      {"timing only: both from shared memory, 1 in flight", wgmmaGemmWS<4, 1, 40, 232, true>, wsSharedBytes<4>()}};
  gemm.run(specialized, dim3(gemm.N / kBN, gemm.M / kBM), kWsThreads);
  {
    const CUtensorMap mapA = tensorMap(gemm.a, gemm.M, gemm.K, kBK, kBM),
                      mapB = tensorMap(gemm.b, gemm.K, gemm.N, 32, kBK);
    for (const auto& [name, kernel] : {std::pair{"wgmma, bulk tensor copies, 4 stages", wgmmaGemmTma<4, 0>},
                                       std::pair{"wgmma, bulk tensor copies, 1 in flight", wgmmaGemmTma<4, 1>}}) {
      CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, tmaSharedBytes<4>()));
      gemm.report(name, [&, k = kernel] {
        k<<<dim3(gemm.N / kBN, gemm.M / kBM), kWsThreads, tmaSharedBytes<4>()>>>(mapA, mapB, gemm.c, gemm.M, gemm.N,
                                                                                 gemm.K, nullptr, 1.0f, 0.0f);
      });
    }
    CHECK(cudaFuncSetAttribute(wgmmaGemmTmaA<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, sharedBytes<4>()));
    gemm.report("wgmma, A by bulk tensor copies, B by cp.async", [&] {
      wgmmaGemmTmaA<4><<<dim3(gemm.N / kBN, gemm.M / kBM), kThreads, sharedBytes<4>()>>>(mapA, gemm.b, gemm.c, gemm.M,
                                                                                         gemm.N, gemm.K);
    });
    for (const auto& [name, kernel] :
         {std::pair{"wgmma, bulk tensor copies from thread 0, 4 stages", wgmmaGemmTmaSync<4>}}) {
      CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, tmaSharedBytes<4>()));
      gemm.report(name, [&, k = kernel] {
        k<<<dim3(gemm.N / kBN, gemm.M / kBM), kThreads, tmaSharedBytes<4>()>>>(mapA, mapB, gemm.c, gemm.M, gemm.N,
                                                                               gemm.K);
      });
    }
  }
  const tf32gemm::Variant both[] = {{"wgmma, A and Bᵀ shared", wgmmaGemmSS<4, true>, ssSharedBytes<4>()},
                                    {"wgmma, A and Bᵀ shared, as they are", wgmmaGemmSS<4, false>, ssSharedBytes<4>()}};
  gemm.run(both, dim3(gemm.N / kSsBN, gemm.M / kBM), kSsThreads);
  // The emitted entries on warpgroups (256 and 128 rows a block, 128 columns), the outputs
  // alpha * sum + beta * C with beta 0; their dynamic shared memory as their declarations say
  // (four stages of k 32, + 1 KiB for the alignment).
  float* c0;
  CHECK(cudaMalloc(&c0, (size_t)gemm.M * gemm.N * 4));
  CHECK(cudaMemset(c0, 0, (size_t)gemm.M * gemm.N * 4));
  // The hand-written bulk-copy form with the entry's epilogue (alpha * sum + beta * C, beta 0, C read).
  {
    const CUtensorMap mapA = tensorMap(gemm.a, gemm.M, gemm.K, kBK, kBM),
                      mapB = tensorMap(gemm.b, gemm.K, gemm.N, 32, kBK);
    CHECK(cudaFuncSetAttribute(wgmmaGemmTma<4, 0, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               tmaSharedBytes<4>()));
    gemm.report("wgmma, bulk tensor copies, 4 stages, epilogue", [&] {
      wgmmaGemmTma<4, 0, true>
          <<<dim3(gemm.N / kBN, gemm.M / kBM), kWsThreads, tmaSharedBytes<4>()>>>(mapA, mapB, gemm.c, gemm.M, gemm.N,
                                                                                  gemm.K, c0, 1.0f, 0.0f);
    });
  }
  // Each with its bulk tensor copies (the runtime's maps: A as rows of K in boxes of 32 x the
  // entry's rows, B as rows of N in boxes of 32 x 32) and without (their mask 0: cp.async).
  // The 256-row entry's block has a copying warpgroup (384 threads), the 128-row entry's not.
  for (const auto& [name, entry, rows, threads] : {std::tuple{"GemmCellTf32_wg256", GemmCellTf32_wg256, 256, 384},
                                                   std::tuple{"GemmCellTf32_wg128", GemmCellTf32_wg128, 128, 256}}) {
    const int shared = 4 * 32 * (rows + 128) * 4 + 1024;
    CHECK(cudaFuncSetAttribute(entry, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
    culift_tensor_map maps[2];
    const CUtensorMap a = tensorMap(gemm.a, gemm.M, gemm.K, 32, rows), b = tensorMap(gemm.b, gemm.K, gemm.N, 32, 32);
    std::memcpy(&maps[0], &a, sizeof a);
    std::memcpy(&maps[1], &b, sizeof b);
    for (int held : {3, 0}) {
      const std::string label = std::string(name) + (held ? ", bulk copies" : ", cp.async");
      gemm.report(label.c_str(), [&, e = entry, r = rows, t = threads, m = held] {
        e<<<dim3(gemm.N / 128, gemm.M / r), t, shared>>>(gemm.a, gemm.b, c0, 1.0f, 0.0f, gemm.K, gemm.N, gemm.c, gemm.M,
                                                         gemm.N, 0, maps[0], maps[1], m);
      });
    }
  }
  return 0;
}
