// Where the exact-order GEMM entry's time goes: the benchmark's GemmCell (alpha A B + beta C, each
// output summing k in order) through the entry as culift emits it (`GemmCell_tiled128`: 128 x 128
// outputs per block of 256 threads, 8 x 8 per thread, k in tiles of 8, three tiles in flight by
// asynchronous copies, B's in 16-byte groups where aligned, a warp of 4 x 8 threads; at these
// shapes every block runs its whole-tile form) against hand-written forms of the
// same entry, each with the same bits (the same products, summed in the same order, the same epilogue):
//
// - pipe<BK, ST, V, Q>: k in tiles of BK (8 or 16: half the barriers per product at 16), ST tiles
//                    in flight, and with V the B tile copied 16 bytes at once (a quarter of the copy
//                    instructions); the A tile keeps its 4-byte copies (it is stored transposed).
//                    Each thread's outputs and the order of its loads from shared memory are the
//                    entry's; Q says which threads a warp holds: 2 rows x 16 columns of the 16 x 16
//                    threads (false: 6 shared-memory wavefronts a warp's step of k) or 4 x 8 (true:
//                    4 wavefronts; both far under the multiprocessor's one a clock for 64 clocks of
//                    products, so a change would come from fewer loads in the queue). The entry holds
//                    4 x 8 where it copies B in 16-byte groups (as pipe<8, 3, true, true>), 2 x 16
//                    elsewhere.
//
// - wide<BK, ST>:    pipe<BK, ST, true, true> with 128 x 256 outputs a block, 8 x 16 a thread at
//                    one block a multiprocessor (fewer shared-memory loads a product than 8 x 8).
//
// - rowa<BK, ST, RA, TN>: the loop over k in rounds of ST tiles, each round's stages unrolled (every
//                    stage's place in shared memory a constant), the copies' sources one pointer
//                    each, stepped a tile at a time; named "unrolled" (RA false: A transposed as
//                    pipe stages it) and "rowa" (RA true: A as it lies in memory, 16-byte copies,
//                    read 4 k of a row at once, a thread's rows ty + 16 m), with TN 16 ("...w")
//                    the wide tile of 128 x 256 at one block a multiprocessor. Measured on an H100
//                    (NOTES.md, eleventh run): unrolled<16, 2> 2.966 ms at 4096³ against
//                    pipe<8, 3, v, q> 3.096; the rowa forms lose (41-43 TFLOP/s).
//
// Beside them, the entry's whole form alone (as its kernel's arguments come: "whole, 64-bit args").
// The kernel's dispatch with no call of its checked form ran 2.89 ms on an H100 where the kernel with
// the call ran 3.05 (NOTES.md, fourteenth run): the call's presence was its 5 %. The checked form
// is now a kernel of its own (`GemmCell_tiled128_edge`, launched after the entry, here a test and a
// return a block): "GemmCell_tiled128 + _edge" times both launches as the runtime makes them, and
// the entry and its edge kernel are timed alone too; on shapes of partial tiles, beside the kernel
// of both forms as it was (the edge kernel's blocks run after the entry's, not in its waves), and
// "+ _edge overlapping": the edge kernel launched as the runtime launches it on sm_90, its blocks
// free to start beside the entry's last wave (programmatic stream serialization).
//
// The forms take whole tiles only (the shapes below are multiples of 256 and of 16); the entry
// takes any.
//
// On the GPU machine, `HARNESSES=gemm OUT=... scripts/gpu-harnesses.sh` builds and runs it;
// standalone, over the entry as culift emits it:
//
//   culift emit bench/gpu/blas_cells.hpp -o .gpu/blas.cu -- -Iinclude   (development machine)
//   nvcc -O3 -arch=sm_90 -I.gpu -Ibench/gpu -o gemm_variants bench/gpu/gemm_variants.cu &&
//   ./gemm_variants
//
// (default math, as the benchmark runs it: the products and sums contract to fused multiply-adds
// alike in every form.) Each line: the shape, the form, the median of 15 launches, TFLOP/s, and
// whether every output has the emitted entry's bits.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "blas.cu"

#include "cuda_check.cuh"

namespace {

constexpr int kTile = 128, kPad = 132, kThreads = 256;
// The emitted entry's two forms share its dynamic shared memory: the whole form's 2 stages of
// 16 x 132 floats of each operand, the checked form's 3 of 8 x 132 within them.
constexpr int kEntryShared = 2 * 2 * 16 * 132 * 4;

// A block's columns and the pad of its staged B rows for TN outputs a thread along j (16 threads a row).
template <int TN> __host__ __device__ constexpr int blockCols() { return 16 * TN; }
template <int TN> __host__ __device__ constexpr int padB() { return blockCols<TN>() + 4; }
template <int BK, int ST, int TN> constexpr int sharedBytes() { return ST * BK * (kPad + padB<TN>()) * 4; }

// TN: 8 (the entry's 8 x 8 a thread, 128 x 128 a block, two blocks a multiprocessor) or 16 (the
// wide forms: 8 x 16 a thread, 128 x 256 a block, one block a multiprocessor, 128 sums and the
// fragments in about 250 registers; per step of k a thread loads 24 values for 128 products, not
// 16 for 64).

template <int BK, int ST, bool V, bool Q, int TN = 8> __global__ void __launch_bounds__(kThreads, TN == 8 ? 2 : 1)
    pipe(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ C, float alpha, float beta,
         int M, int N, int K, float* __restrict__ out) {
  constexpr int kCols = blockCols<TN>(), kPadB = padB<TN>();
  extern __shared__ __align__(16) float smem[];
  float* const sA = smem;                   // [ST][BK][kPad]: A[i][k] at [k][i - i0]
  float* const sB = smem + ST * BK * kPad;  // [ST][BK][kPadB]: B[k][j] at [k][j - j0]
  const int i0 = blockIdx.y * kTile, j0 = blockIdx.x * kCols;
  const int tx = Q ? threadIdx.x / 32 % 2 * 8 + threadIdx.x % 8 : threadIdx.x % 16;
  const int ty = Q ? threadIdx.x / 64 * 4 + threadIdx.x % 32 / 8 : threadIdx.x / 16;
  // A: element e = threadIdx.x + u * 256 of the tile is row (e / 8) % 128, k e % 8 + 8 * (e / 1024):
  // a warp's copies take 4 rows x 8 consecutive k (32 bytes each) and land in 32 banks.
  auto loadA = [&](int kt, int st) {
#pragma unroll
    for (int u = 0; u < BK / 2; ++u) {
      const int e = threadIdx.x + u * kThreads;
      const int r = (e / 8) % kTile, q = e % 8 + 8 * (e / (8 * kTile));
      culift_copy_async(&sA[(st * BK + q) * kPad + r], &A[(long long)(i0 + r) * K + kt + q]);
    }
  };
  auto loadB = [&](int kt, int st) {
    if constexpr (V) {
#pragma unroll
      for (int u = 0; u < BK * kCols / 4 / kThreads; ++u) {
        const int e = threadIdx.x + u * kThreads;
        const int r = (e % (kCols / 4)) * 4, q = e / (kCols / 4);
        culift_copy_async16(&sB[(st * BK + q) * kPadB + r], &B[(long long)(kt + q) * N + j0 + r], 16);
      }
    } else {
#pragma unroll
      for (int u = 0; u < BK * kCols / kThreads; ++u) {
        const int e = threadIdx.x + u * kThreads;
        const int r = e % kCols, q = e / kCols;
        culift_copy_async(&sB[(st * BK + q) * kPadB + r], &B[(long long)(kt + q) * N + j0 + r]);
      }
    }
  };
  float sum[8][TN];
#pragma unroll
  for (int m = 0; m < 8; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) sum[m][n] = 0.0f;
#pragma unroll
  for (int s = 0; s < ST - 1; ++s) {
    if (s * BK < K) {
      loadA(s * BK, s);
      loadB(s * BK, s);
    }
    culift_copy_commit();
  }
  int st = 0;
#pragma unroll 1
  for (int kt = 0; kt < K; kt += BK) {
    culift_copy_wait<ST - 2>();
    __syncthreads();
    {
      const int next = kt + (ST - 1) * BK, sn = (st + ST - 1) % ST;
      if (next < K) {
        loadA(next, sn);
        loadB(next, sn);
      }
      culift_copy_commit();
    }
    const float* a = sA + st * BK * kPad;
    const float* b = sB + st * BK * kPadB;
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      float v0[8], v1[TN];
#pragma unroll
      for (int u = 0; u < 8; ++u) v0[u] = a[kk * kPad + (u / 4) * 64 + ty * 4 + u % 4];
#pragma unroll
      for (int u = 0; u < TN; ++u) v1[u] = b[kk * kPadB + (u / 4) * 64 + tx * 4 + u % 4];
#pragma unroll
      for (int m = 0; m < 8; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n) sum[m][n] += v0[m] * v1[n];
    }
    st = st == ST - 1 ? 0 : st + 1;
  }
#pragma unroll
  for (int m = 0; m < 8; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) {
      const int i = i0 + (m / 4) * 64 + ty * 4 + m % 4, j = j0 + (n / 4) * 64 + tx * 4 + n % 4;
      const float r = (alpha * sum[m][n]) + (beta * C[(long long)i * N + j]);
      out[(long long)i * N + j] = r;
    }
}

// rowa<BK, ST>: pipe<BK, ST, true, true>'s outputs, warp layout and order of products, with A staged
// as it lies in memory (a row's BK values of k, copied 16 bytes at once: one copy a thread a tile of
// 8) and read as 4 values of k a row from one 16-byte load (8 loads a thread for 4 steps of k, as
// the transposed tile's 2 a step); the tile loop unrolled by ST so that every stage's place in
// shared memory is a constant, the copies' sources one pointer each stepped by the tile.
__device__ __forceinline__ void rowaCopy(unsigned shared, const float* global) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(shared), "l"(global));
}
__device__ __forceinline__ void rowaCopy4(unsigned shared, const float* global) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(shared), "l"(global));
}
template <int BK, int ST, bool RA, int TN> constexpr int rowaShared() {
  return ST * ((RA ? kTile * BK : BK * kPad) + BK * padB<TN>()) * 4;
}
// RA false: A staged transposed as pipe stages it (4-byte copies), the rest as above (the loop's
// constant stage places alone). RA true: a thread's rows are ty + 16 m (the 4 rows a warp reads at
// once then lie in 4 different 32-byte lines of the tile: no bank conflicts; as pipe's rows
// ty * 4 + m they would share banks). TN: 8 (128 x 128 a block, two blocks a multiprocessor) or 16
// (128 x 256, one block).
template <int BK, int ST, bool RA, int TN, int AQ = 8> __global__ void __launch_bounds__(kThreads, TN == 8 ? 2 : 1)
    rowa(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ C, float alpha, float beta,
         int M, int N, int K, float* __restrict__ out) {
  extern __shared__ __align__(16) float smem[];
  constexpr int kCols = blockCols<TN>(), kPadB = padB<TN>();
  constexpr int kStageA = RA ? kTile * BK : BK * kPad, kStageB = BK * kPadB;  // floats a stage
  float* const sA = smem;                                                     // [ST][128][BK] (RA) or [ST][BK][kPad]
  float* const sB = smem + ST * kStageA;                                      // [ST][BK][kPadB]: B[k][j] at [k][j - j0]
  const int i0 = blockIdx.y * kTile, j0 = blockIdx.x * kCols;
  const int tx = threadIdx.x / 32 % 2 * 8 + threadIdx.x % 8;
  const int ty = threadIdx.x / 64 * 4 + threadIdx.x % 32 / 8;
  auto rowOf = [&](int m) { return RA ? ty + 16 * m : (m / 4) * 64 + ty * 4 + m % 4; };
  constexpr int kCopiesA = RA ? kTile * BK / 4 / kThreads : kTile * BK / kThreads, kCopiesB = BK * kCols / 4 / kThreads;
  const float* gA[kCopiesA];
  unsigned dA[kCopiesA];
#pragma unroll
  for (int u = 0; u < kCopiesA; ++u) {
    const int e = threadIdx.x + u * kThreads;
    if constexpr (RA) {
      const int r = e / (BK / 4), g = e % (BK / 4);
      gA[u] = A + (long long)(i0 + r) * K + g * 4;
      dA[u] = (unsigned)__cvta_generic_to_shared(sA + r * BK + g * 4);
    } else {
      const int r = (e / AQ) % kTile, q = e % AQ + AQ * (e / (AQ * kTile));
      gA[u] = A + (long long)(i0 + r) * K + q;
      dA[u] = (unsigned)__cvta_generic_to_shared(sA + q * kPad + r);
    }
  }
  const float* gB[kCopiesB];
  unsigned dB[kCopiesB];
#pragma unroll
  for (int u = 0; u < kCopiesB; ++u) {
    const int e = threadIdx.x + u * kThreads, q = e / (kCols / 4), r = e % (kCols / 4) * 4;
    gB[u] = B + (long long)q * N + j0 + r;
    dB[u] = (unsigned)__cvta_generic_to_shared(sB + q * kPadB + r);
  }
  const long long stepB = (long long)BK * N;
  auto load = [&](int tile, int st) {  // tile: its index (k = tile * BK)
#pragma unroll
    for (int u = 0; u < kCopiesA; ++u) {
      if constexpr (RA) rowaCopy(dA[u] + st * kStageA * 4, gA[u] + tile * BK);
      else rowaCopy4(dA[u] + st * kStageA * 4, gA[u] + tile * BK);
    }
#pragma unroll
    for (int u = 0; u < kCopiesB; ++u) rowaCopy(dB[u] + st * kStageB * 4, gB[u] + tile * stepB);
  };
  float sum[8][TN];
#pragma unroll
  for (int m = 0; m < 8; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) sum[m][n] = 0.0f;
  const int tiles = K / BK;
#pragma unroll
  for (int s = 0; s < ST - 1; ++s) {
    if (s < tiles) load(s, s);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  const float* aRow = sA + (RA ? ty * BK : ty * 4);
  const float* bCol = sB + tx * 4;
#pragma unroll 1
  for (int t0 = 0; t0 < tiles; t0 += ST) {
#pragma unroll
    for (int st = 0; st < ST; ++st) {
      const int t = t0 + st;
      if (t < tiles) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(ST - 2));
        __syncthreads();
        if (t + ST - 1 < tiles) load(t + ST - 1, (st + ST - 1) % ST);
        asm volatile("cp.async.commit_group;\n" ::);
        const float* a = aRow + st * kStageA;
        const float* b = bCol + st * kStageB;
        if constexpr (!RA) {
#pragma unroll
          for (int kk = 0; kk < BK; ++kk) {
            const float4 a0 = *(const float4*)&a[kk * kPad], a1 = *(const float4*)&a[kk * kPad + 64];
            const float v0[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float v1[TN];
#pragma unroll
            for (int g = 0; g < TN / 4; ++g) {
              const float4 bg = *(const float4*)&b[kk * kPadB + g * 64];
              v1[4 * g] = bg.x, v1[4 * g + 1] = bg.y, v1[4 * g + 2] = bg.z, v1[4 * g + 3] = bg.w;
            }
#pragma unroll
            for (int m = 0; m < 8; ++m)
#pragma unroll
              for (int n = 0; n < TN; ++n) sum[m][n] += v0[m] * v1[n];
          }
        } else {
#pragma unroll
          for (int kq = 0; kq < BK; kq += 4) {
            float4 va[8];
#pragma unroll
            for (int m = 0; m < 8; ++m) va[m] = *(const float4*)&a[16 * m * BK + kq];
#pragma unroll
            for (int kk = 0; kk < 4; ++kk) {
              float v1[TN];
#pragma unroll
              for (int g = 0; g < TN / 4; ++g) {
                const float4 bg = *(const float4*)&b[(kq + kk) * kPadB + g * 64];
                v1[4 * g] = bg.x, v1[4 * g + 1] = bg.y, v1[4 * g + 2] = bg.z, v1[4 * g + 3] = bg.w;
              }
#pragma unroll
              for (int m = 0; m < 8; ++m) {
                const float v0 = kk == 0 ? va[m].x : kk == 1 ? va[m].y : kk == 2 ? va[m].z : va[m].w;
#pragma unroll
                for (int n = 0; n < TN; ++n) sum[m][n] += v0 * v1[n];
              }
            }
          }
        }
      }
    }
  }
#pragma unroll
  for (int m = 0; m < 8; ++m)
#pragma unroll
    for (int n = 0; n < TN; ++n) {
      const int i = i0 + rowOf(m), j = j0 + (n / 4) * 64 + tx * 4 + n % 4;
      const float r = (alpha * sum[m][n]) + (beta * C[(long long)i * N + j]);
      out[(long long)i * N + j] = r;
    }
}

// The entry's whole form alone (no dispatch, no call of the checked form beside it).
__global__ void __launch_bounds__(kThreads, 2)
    entryWhole(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ C, float alpha,
               float beta, int M, int N, int K, float* __restrict__ out) {
  culift_GemmCell_tiled128_whole(A, B, C, alpha, beta, K, N, out, M, N, 0);
}

// The entry's whole form behind a barrier's vote of every thread (as the kernel once took its
// form), no call of the checked form beside it: the vote's cost apart from the call's.
__global__ void __launch_bounds__(kThreads, 2)
    entryVoted(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ C, float alpha,
               float beta, int M, int N, int K, float* __restrict__ out) {
  if (__syncthreads_and(((reinterpret_cast<unsigned long long>(B) / 4 + threadIdx.x % 32 * 4) & 3) == 0))
    culift_GemmCell_tiled128_whole(A, B, C, alpha, beta, K, N, out, M, N, 0);
}

// The whole form alone with the kernel's index arithmetic: the first row and the extents as the
// kernel takes them (64-bit values not known when compiled; `K >> 31` is 0 for the shapes here).
__global__ void __launch_bounds__(kThreads, 2)
    entryWholeP(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ C, float alpha,
                float beta, int M, int N, int K, float* __restrict__ out) {
  culift_GemmCell_tiled128_whole(A, B, C, alpha, beta, K, N, out, (long long)M, (long long)N, (long long)(K >> 31));
}

// The kernel as it was before the edge kernels: the entry's test, then the whole form inlined or
// the checked form as a call (a function of its own), in one kernel. On shapes of partial tiles
// its blocks of either form share the waves, where the entry and its edge kernel run one after
// the other: `runPartial` times both.
__device__ __noinline__ void checkedCall(const float* __restrict__ A, const float* __restrict__ B,
                                         const float* __restrict__ C, float alpha, float beta, int K, int N,
                                         float* __restrict__ out, long long M, long long cols) {
  culift_GemmCell_tiled128_edge(A, B, C, alpha, beta, K, N, out, M, cols, 0);
}
__global__ void __launch_bounds__(kThreads, 2)
    combined(const float* __restrict__ A, const float* __restrict__ B, const float* __restrict__ C, float alpha,
             float beta, int K, int N, float* __restrict__ out, long long M, long long cols) {
  const int i0 = blockIdx.y * 128, j0 = blockIdx.x * 128;
  const bool whole = (int)M - i0 >= 128 && (int)cols - j0 >= 128;
  const bool w1 = (N & 3) == 0 && ((reinterpret_cast<unsigned long long>(B) / 4 + (unsigned long long)j0) & 3) == 0;
  if (whole && w1 && K % 16 == 0) culift_GemmCell_tiled128_whole(A, B, C, alpha, beta, K, N, out, M, cols, 0);
  else checkedCall(A, B, C, alpha, beta, K, N, out, M, cols);
}

using Variant = void (*)(const float*, const float*, const float*, float, float, int, int, int, float*);

struct Form {
  const char* name;
  Variant fn;
  int shared;
  int cols;  // outputs a block along j
};

template <int BK, int ST, bool V, bool Q, int TN = 8> Form form(const char* name) {
  const Variant f = pipe<BK, ST, V, Q, TN>;
  CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, sharedBytes<BK, ST, TN>()));
  return {name, f, sharedBytes<BK, ST, TN>(), blockCols<TN>()};
}

template <int BK, int ST, bool RA, int TN = 8, int AQ = 8> Form rowaForm(const char* name) {
  const Variant f = rowa<BK, ST, RA, TN, AQ>;
  CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, rowaShared<BK, ST, RA, TN>()));
  return {name, f, rowaShared<BK, ST, RA, TN>(), blockCols<TN>()};
}


// A shape's operands on the device (A, B, C filled alike for every shape), the entry's result
// (`ref`) and a form's (`out`); launches of the entry and its edge kernel over `grid`.
struct Gemm {
  int M, N, K;
  float *a, *b, *c, *ref, *out;
  const float alpha = 1.5f, beta = 1.2f;
  Gemm(int m, int n, int k) : M(m), N(n), K(k) {
    std::vector<float> ha((size_t)M * K), hb((size_t)K * N), hc((size_t)M * N);
    fillUniform(ha, 31u);
    fillUniform(hb, 41u);
    fillUniform(hc, 59u);
    CHECK(cudaMalloc(&a, ha.size() * 4));
    CHECK(cudaMalloc(&b, hb.size() * 4));
    CHECK(cudaMalloc(&c, hc.size() * 4));
    CHECK(cudaMalloc(&ref, hc.size() * 4));
    CHECK(cudaMalloc(&out, hc.size() * 4));
    CHECK(cudaMemcpy(a, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(c, hc.data(), hc.size() * 4, cudaMemcpyHostToDevice));
  }
  ~Gemm() {
    for (float* p : {a, b, c, ref, out}) CHECK(cudaFree(p));
  }
  Gemm(const Gemm&) = delete;
  Gemm& operator=(const Gemm&) = delete;
  size_t outputs() const { return (size_t)M * N; }
  double flops() const { return 2.0 * M * N * (double)K; }
  // Whether `out` holds `ref`'s bits.
  bool same() const {
    std::vector<float> want(outputs()), got(outputs());
    CHECK(cudaMemcpy(want.data(), ref, want.size() * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(got.data(), out, got.size() * 4, cudaMemcpyDeviceToHost));
    return std::memcmp(got.data(), want.data(), got.size() * 4) == 0;
  }
  void entry(dim3 grid, float* to = nullptr) const {
    GemmCell_tiled128<<<grid, kThreads, kEntryShared>>>(a, b, c, alpha, beta, K, N, to ? to : ref, M, N, 0);
  }
  void edge(dim3 grid) const {
    GemmCell_tiled128_edge<<<grid, kThreads, kEntryShared>>>(a, b, c, alpha, beta, K, N, ref, M, N, 0);
  }
  // The edge kernel as the runtime launches it on sm_90: its blocks may start once every block of
  // the entry has (programmatic stream serialization; the entry's culift_start_edge).
  void edgeOverlapping(dim3 grid, float* to) const {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = kEntryShared;
    config.attrs = &attribute;
    config.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&config, GemmCell_tiled128_edge, (const float*)a, (const float*)b, (const float*)c, alpha,
                             beta, K, N, to, (long long)M, (long long)N, 0ll));
  }
  // The entry and its edge kernel overlapping, into `out`: their time, and whether `out` holds the
  // bits of the entry and edge kernel one after the other (`ref`).
  void reportOverlapped(dim3 grid) const {
    CHECK(cudaMemset(out, 0xff, outputs() * 4));
    const double ms = medianMs(
        [&] {
          entry(grid, out);
          edgeOverlapping(grid, out);
        },
        15);
    std::printf("%d x %d x %d  GemmCell_tiled128 + _edge overlapping   %.4f ms  %5.2f TFLOP/s  %s\n", M, N, K, ms,
                flops() / (ms * 1e9), same() ? "same bits" : "DIFFERENT BITS");
  }
};

void run(int M, int N, int K, const std::vector<Form>& forms) {
  const Gemm g(M, N, K);
  const dim3 grid(N / kTile, M / kTile);
  auto both = [&] {
    g.entry(grid);
    g.edge(grid);
  };
  const double entryMs = medianMs(both, 15);
  std::printf("%d x %d x %d  GemmCell_tiled128 + _edge   %.4f ms  %5.2f TFLOP/s\n", M, N, K, entryMs,
              g.flops() / (entryMs * 1e9));
  g.reportOverlapped(grid);
  std::printf("%d x %d x %d  GemmCell_tiled128 alone   %.4f ms\n", M, N, K, medianMs([&] { g.entry(grid); }, 15));
  std::printf("%d x %d x %d  GemmCell_tiled128_edge alone (no block of its own)   %.4f ms\n", M, N, K,
              medianMs([&] { g.edge(grid); }, 15));
  for (const Form& f : forms) {
    CHECK(cudaMemset(g.out, 0xff, g.outputs() * 4));
    const dim3 fg(N / f.cols, M / kTile);
    const double ms =
        medianMs([&] { f.fn<<<fg, kThreads, f.shared>>>(g.a, g.b, g.c, g.alpha, g.beta, M, N, K, g.out); }, 15);
    std::printf("%d x %d x %d  %-18s  %.4f ms  %5.2f TFLOP/s  %s\n", M, N, K, f.name, ms, g.flops() / (ms * 1e9),
                g.same() ? "same bits" : "DIFFERENT BITS");
  }
  // The entry again, after the forms: the first figure without the clocks' ramp.
  const double againMs = medianMs(both, 15);
  std::printf("%d x %d x %d  GemmCell_tiled128 + _edge (again)  %.4f ms  %5.2f TFLOP/s\n", M, N, K, againMs,
              g.flops() / (againMs * 1e9));
}

// A shape of partial tiles (M, N not multiples of 128): the entry and its edge kernel one after
// the other, against the kernel of both forms (`combined`); the same bits.
void runPartial(int M, int N, int K) {
  const Gemm g(M, N, K);
  const dim3 grid((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
  const double splitMs = medianMs(
      [&] {
        g.entry(grid);
        g.edge(grid);
      },
      15);
  const double oneMs = medianMs(
      [&] { combined<<<grid, kThreads, kEntryShared>>>(g.a, g.b, g.c, g.alpha, g.beta, K, N, g.out, M, N); }, 15);
  std::printf("%d x %d x %d  GemmCell_tiled128 + _edge   %.4f ms  %5.2f TFLOP/s\n", M, N, K, splitMs,
              g.flops() / (splitMs * 1e9));
  std::printf("%d x %d x %d  both forms in one kernel     %.4f ms  %5.2f TFLOP/s  %s\n", M, N, K, oneMs,
              g.flops() / (oneMs * 1e9), g.same() ? "same bits" : "DIFFERENT BITS");
  g.reportOverlapped(grid);
}

}  // namespace

int main() {
  CHECK(cudaFuncSetAttribute(entryWhole, cudaFuncAttributeMaxDynamicSharedMemorySize, kEntryShared));
  CHECK(cudaFuncSetAttribute(entryVoted, cudaFuncAttributeMaxDynamicSharedMemorySize, kEntryShared));
  CHECK(cudaFuncSetAttribute(entryWholeP, cudaFuncAttributeMaxDynamicSharedMemorySize, kEntryShared));
  const std::vector<Form> forms = {
      {"entry whole form", entryWhole, kEntryShared, kTile},
      {"whole form, voted", entryVoted, kEntryShared, kTile},
      {"whole, 64-bit args", entryWholeP, kEntryShared, kTile},
      rowaForm<16, 2, false, 8, 16>("unrolled<16,2>a16"),
      form<8, 3, true, true>("pipe<8,3,v,q>"),
      form<16, 3, true, true, 16>("wide<16,3>"),
      rowaForm<8, 3, false>("unrolled<8,3>"),
      rowaForm<8, 4, false>("unrolled<8,4>"),
      rowaForm<16, 3, false>("unrolled<16,3>"),
      rowaForm<16, 2, false>("unrolled<16,2>"),
      rowaForm<8, 3, false, 16>("unrolledw<8,3>"),
      rowaForm<16, 3, false, 16>("unrolledw<16,3>"),
      rowaForm<8, 3, true>("rowa<8,3>"),
      rowaForm<8, 4, true>("rowa<8,4>"),
      rowaForm<16, 3, true>("rowa<16,3>"),
      rowaForm<8, 3, true, 16>("rowaw<8,3>"),
      rowaForm<8, 4, true, 16>("rowaw<8,4>"),
      rowaForm<16, 3, true, 16>("rowaw<16,3>"),
  };
  CHECK(cudaFuncSetAttribute(combined, cudaFuncAttributeMaxDynamicSharedMemorySize, kEntryShared));
  CHECK(cudaFuncSetAttribute(GemmCell_tiled128, cudaFuncAttributeMaxDynamicSharedMemorySize, kEntryShared));
  CHECK(cudaFuncSetAttribute(GemmCell_tiled128_edge, cudaFuncAttributeMaxDynamicSharedMemorySize, kEntryShared));
  run(4096, 4096, 4096, forms);
  run(2048, 4096, 8192, forms);
  runPartial(4000, 4000, 4096);
  runPartial(3000, 5000, 4096);
  return 0;
}
