// Where C = A Bᵀ's time goes (2048 x 8192 x 4096, KernelBench's shape): the benchmark's
// MatMulBtCell through the entry as culift emits it (`MatMulBtCell_tiled128`: both operands read
// along k, so both staged transposed, k-major rows turned into columns by 4-byte copies; C = A B
// copies B 16 bytes at once and runs 5 % faster, NOTES.md, eighteenth run) against hand-written
// forms that stage B as it lies (its tile's rows of 16 k, 16-byte copies) and read 4 or 2 k of
// each of a thread's 8 columns at once (`rows<P, V>`). A stays as the entry stages it, the
// threads' outputs, their order of products (k in order, one fused multiply-add a product) and the
// stores are the entry's: the same bits.
//
// - rows<false, V>: column c of the tile in staged row c. The 8 columns a quarter warp reads at
//                   once (4 tx + j for its 8 threads tx) are 4 rows apart: 20 floats a row, two
//                   16-byte groups of banks among them, four lanes to a group.
// - rows<true, V>:  column c in staged row (c % 4) * 32 + c / 4: those 8 columns in consecutive
//                   rows, 8 groups of banks (the 16-byte copies of two columns of a quarter warp
//                   meet in one: 2 wavefronts a copy instruction, against 32 reads a copy).
// - paired:         both operands staged as pairs of k by 8-byte copies (half the entry's copy
//                   instructions), read 4 rows of a pair at once (the entry's read count).
// - turned:         both operands read 16 bytes at once into registers a tile ahead and stored
//                   k-major (4-byte stores) after the tile before is computed, the outputs' loop
//                   C = A B's: the transposition through registers instead of 4-byte copies.
//
// Standalone, over the entry as culift emits it:
//
//   culift emit bench/gpu/blas_cells.hpp -o .gpu/blas.cu -- -Iinclude   (development machine)
//   nvcc -O3 -arch=sm_90 -I.gpu -Ibench/gpu -o bt_variants bench/gpu/bt_variants.cu && ./bt_variants
//
// Each line: the form, the median of 15 launches, TFLOP/s, and whether every output has the
// emitted entry's bits; two rounds.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "blas.cu"

#include "cuda_check.cuh"

namespace {

constexpr int kRowPitch = 20;  // B's staged row: 16 k + 4

// The entry's warp of 4 x 8 threads, 8 x 8 outputs a thread: the thread's place along j and i.
__device__ __forceinline__ int threadTx() { return (int)(threadIdx.x / 32 % 2 * 8 + threadIdx.x % 8); }
__device__ __forceinline__ int threadTy() { return (int)(threadIdx.x / 64 * 4 + threadIdx.x % 32 / 8); }

// The thread's 8 x 8 outputs of the tile at (i0, j0), four columns a store, as the entry stores them.
__device__ __forceinline__ void storeTile(const float (&acc)[8][8], float* __restrict__ C, int nj, int i0, int j0,
                                          int tx, int ty) {
#pragma unroll
  for (int m = 0; m < 8; ++m)
#pragma unroll
    for (int g = 0; g < 8; g += 4) {
      const int i = i0 + (m / 4) * 64 + ty * 4 + m % 4, j = j0 + (g / 4) * 64 + tx * 4;
      *reinterpret_cast<float4*>(&C[(size_t)i * nj + j]) = make_float4(acc[m][g], acc[m][g + 1], acc[m][g + 2],
                                                                       acc[m][g + 3]);
    }
}

// The walk over k of the forms that copy asynchronously, two stages: tile t + 1's copies in flight
// while tile t is computed (`tiles` even).
template <typename Copy, typename Compute>
__device__ __forceinline__ void walkStages(int tiles, const Copy& copy, const Compute& compute) {
  copy(0, 0);
  culift_copy_commit();
#pragma unroll 1
  for (int t = 0; t < tiles; t += 2) {
#pragma unroll
    for (int st = 0; st < 2; ++st) {
      culift_copy_wait<0>();
      __syncthreads();
      if (t + st + 1 < tiles) copy(st ^ 1, (t + st + 1) * 16);
      culift_copy_commit();
      compute(st);
    }
  }
}

template <bool Permuted, int V> __global__ void __launch_bounds__(256, 2)
    rows(const float* __restrict__ A, const float* __restrict__ B, int nk, float* __restrict__ C, int nj) {
  __shared__ __align__(16) float sA[2][16][132];
  __shared__ __align__(16) float sB[2][128][kRowPitch];
  const int i0 = blockIdx.y * 128, j0 = blockIdx.x * 128;
  const int tx = threadTx(), ty = threadTy();
  float acc[8][8] = {};
  const float* const bRow = &sB[0][Permuted ? tx : tx * 4][0];
  const float* ga = A + (size_t)(i0 + threadIdx.x / 16) * nk + threadIdx.x % 16;
  const int bc = threadIdx.x / 4, bk = threadIdx.x % 4;  // B: column bc (+ 64), k group bk
  const float* gb = B + (size_t)(j0 + bc) * nk + bk * 4;
  auto copy = [&](int st, int k0) {
#pragma unroll
    for (int u = 0; u < 8; ++u)
      culift_copy_async(&sA[st][threadIdx.x % 16][threadIdx.x / 16 + u * 16], ga + (size_t)u * 16 * nk + k0);
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      const int c = bc + 64 * u, row = Permuted ? (c & 3) * 32 + (c >> 2) : c;
      culift_copy_async16(&sB[st][row][bk * 4], gb + (size_t)u * 64 * nk + k0, 16);
    }
  };
  walkStages(nk / 16, copy, [&](int st) {
#pragma unroll
    for (int kv = 0; kv < 16 / V; ++kv) {
      float b[8][V];
      const float* const bt = bRow + st * 128 * kRowPitch + kv * V;
#pragma unroll
      for (int n = 0; n < 8; ++n) {
        const float* at = bt + (Permuted ? (n % 4) * 32 + (n / 4) * 16 : (n / 4) * 64 + n % 4) * kRowPitch;
        if constexpr (V == 4) {
          const float4 q = *reinterpret_cast<const float4*>(at);
          b[n][0] = q.x, b[n][1] = q.y, b[n][2] = q.z, b[n][3] = q.w;
        } else {
          const float2 q = *reinterpret_cast<const float2*>(at);
          b[n][0] = q.x, b[n][1] = q.y;
        }
      }
#pragma unroll
      for (int kk = 0; kk < V; ++kk) {
        float a[8];
#pragma unroll
        for (int m = 0; m < 8; ++m) a[m] = sA[st][kv * V + kk][(m / 4) * 64 + ty * 4 + m % 4];
#pragma unroll
        for (int m = 0; m < 8; ++m)
#pragma unroll
          for (int n = 0; n < 8; ++n) acc[m][n] += a[m] * b[n][kk];
      }
    }
  });
  storeTile(acc, C, nj, i0, j0, tx, ty);
}

// turned: both operands loaded 16 bytes at once into registers a tile ahead (4 k of a row), then
// stored k-major into shared memory (4-byte stores, each warp's 32 rows of one k group: no two to
// a bank), after the tile before is computed; the outputs' loop is C = A B's (both tiles k-major,
// 4 consecutive rows or columns of a k read at once). One barrier a tile.
__global__ void __launch_bounds__(256, 2)
    turned(const float* __restrict__ A, const float* __restrict__ B, int nk, float* __restrict__ C, int nj) {
  __shared__ __align__(16) float sA[2][16][132];
  __shared__ __align__(16) float sB[2][16][132];
  const int i0 = blockIdx.y * 128, j0 = blockIdx.x * 128;
  const int tx = threadTx(), ty = threadTy();
  float acc[8][8] = {};
  // The thread's rows (lane + 32 (warp / 4), + 64) and k group (warp % 4) of each tile.
  const int w = (int)(threadIdx.x / 32), row = (int)(threadIdx.x % 32) + 32 * (w / 4), kg = w % 4;
  const float* ga = A + (size_t)(i0 + row) * nk + kg * 4;
  const float* gb = B + (size_t)(j0 + row) * nk + kg * 4;
  float4 ra[2], rb[2];
  auto load = [&](int k0) {
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      ra[u] = *reinterpret_cast<const float4*>(ga + (size_t)u * 64 * nk + k0);
      rb[u] = *reinterpret_cast<const float4*>(gb + (size_t)u * 64 * nk + k0);
    }
  };
  auto store = [&](int st) {
#pragma unroll
    for (int u = 0; u < 2; ++u) {
      const int r = row + 64 * u;
      sA[st][kg * 4 + 0][r] = ra[u].x, sA[st][kg * 4 + 1][r] = ra[u].y;
      sA[st][kg * 4 + 2][r] = ra[u].z, sA[st][kg * 4 + 3][r] = ra[u].w;
      sB[st][kg * 4 + 0][r] = rb[u].x, sB[st][kg * 4 + 1][r] = rb[u].y;
      sB[st][kg * 4 + 2][r] = rb[u].z, sB[st][kg * 4 + 3][r] = rb[u].w;
    }
  };
  load(0);
  store(0);
  __syncthreads();
  const int tiles = nk / 16;
#pragma unroll 1
  for (int t = 0; t < tiles; t += 2) {
#pragma unroll
    for (int st = 0; st < 2; ++st) {
      const bool more = t + st + 1 < tiles;
      if (more) load((t + st + 1) * 16);
#pragma unroll
      for (int k = 0; k < 16; ++k) {
        float a[8], b[8];
#pragma unroll
        for (int m = 0; m < 8; ++m) a[m] = sA[st][k][(m / 4) * 64 + ty * 4 + m % 4];
#pragma unroll
        for (int n = 0; n < 8; ++n) b[n] = sB[st][k][(n / 4) * 64 + tx * 4 + n % 4];
#pragma unroll
        for (int m = 0; m < 8; ++m)
#pragma unroll
          for (int n = 0; n < 8; ++n) acc[m][n] += a[m] * b[n];
      }
      if (more) store(st ^ 1);
      __syncthreads();
    }
  }
  storeTile(acc, C, nj, i0, j0, tx, ty);
}

// paired: both operands staged as pairs of k, 8-byte copies (4 a thread a tile for each operand,
// against the entry's 8 of 4 bytes): stage p holds k 2p and 2p + 1 of every row, row r's pair at
// float 2r XOR 4 (r / 16 % 2) of a pitch of 260 floats. A warp's copies take 4 rows x 64 bytes
// (each half warp's 16 8-byte stores in distinct banks); a thread reads 4 consecutive rows of a
// pair as two 16-byte groups (the XOR puts a warp's 8 column groups of B, 32 floats apart, in
// distinct banks): 4 reads a pair an operand, the entry's 2 a k. The products in k order. The
// loop over pairs is not unrolled: unrolled by 2 or 4, ptxas spills 56 or 112 bytes at the 128
// registers of two blocks an SM (nvcc 13.0, sm_90); not unrolled, none.
constexpr int kPairPitch = 260;
__device__ __forceinline__ int pairAt(int r) { return (2 * r) ^ (4 * ((r >> 4) & 1)); }

__global__ void __launch_bounds__(256, 2)
    paired(const float* __restrict__ A, const float* __restrict__ B, int nk, float* __restrict__ C, int nj) {
  __shared__ __align__(16) float sA[2][8][kPairPitch];
  __shared__ __align__(16) float sB[2][8][kPairPitch];
  const int i0 = blockIdx.y * 128, j0 = blockIdx.x * 128;
  const int tx = threadTx(), ty = threadTy();
  float acc[8][8] = {};
  // The thread's copies: pair p = lane % 8 of rows lane / 8 + 4 (warp + 8 u), u = 0 .. 3.
  const int lane = (int)(threadIdx.x % 32), w = (int)(threadIdx.x / 32), cp = lane % 8;
  const float* ga = A + (size_t)(i0 + lane / 8 + 4 * w) * nk + 2 * cp;
  const float* gb = B + (size_t)(j0 + lane / 8 + 4 * w) * nk + 2 * cp;
  auto copy = [&](int st, int k0) {
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      const int r = lane / 8 + 4 * (w + 8 * u);
      culift_copy_async(reinterpret_cast<float2*>(&sA[st][cp][pairAt(r)]),
                        reinterpret_cast<const float2*>(ga + (size_t)u * 32 * nk + k0));
      culift_copy_async(reinterpret_cast<float2*>(&sB[st][cp][pairAt(r)]),
                        reinterpret_cast<const float2*>(gb + (size_t)u * 32 * nk + k0));
    }
  };
  walkStages(nk / 16, copy, [&](int st) {
#pragma unroll 1
    for (int p = 0; p < 8; ++p) {
      // b[n][h]: column (n / 4) 64 + 4 tx + n % 4, k 2p + h; then A a row pair at a time, both
      // of its k (k 2p's products before k 2p + 1's for each output).
      float b[8][2];
#pragma unroll
      for (int g = 0; g < 2; ++g)
#pragma unroll
        for (int q = 0; q < 2; ++q) {
          const float4 y = *reinterpret_cast<const float4*>(&sB[st][p][pairAt(g * 64 + tx * 4 + 2 * q)]);
          b[g * 4 + 2 * q][0] = y.x, b[g * 4 + 2 * q][1] = y.y, b[g * 4 + 2 * q + 1][0] = y.z;
          b[g * 4 + 2 * q + 1][1] = y.w;
        }
#pragma unroll
      for (int mp = 0; mp < 4; ++mp) {  // rows m = 2 mp, 2 mp + 1
        const int m = 2 * mp;
        const float4 x = *reinterpret_cast<const float4*>(&sA[st][p][pairAt((m / 4) * 64 + ty * 4 + m % 4)]);
        const float a[2][2] = {{x.x, x.y}, {x.z, x.w}};
#pragma unroll
        for (int h = 0; h < 2; ++h)
#pragma unroll
          for (int r = 0; r < 2; ++r)
#pragma unroll
            for (int n = 0; n < 8; ++n) acc[m + r][n] += a[r][h] * b[n][h];
      }
    }
  });
  storeTile(acc, C, nj, i0, j0, tx, ty);
}

// The entry's whole form alone, over whole tiles.
__global__ void __launch_bounds__(256, 2)
    wholeForm(const float* __restrict__ A, const float* __restrict__ B, int nk, float* __restrict__ C, int nj) {
  culift_MatMulBtCell_tiled128_whole(A, B, nk, C, (long long)gridDim.y * 128, nj, 0);
}

}  // namespace

int main() {
  const int m = 2048, n = 4096, nk = 8192;  // the forms take whole tiles and whole steps of 16 k
  std::vector<float> ha((size_t)m * nk), hb((size_t)n * nk);
  fillUniform(hb, fillUniform(ha, 12345u));
  float *A, *B, *C, *ref;
  CHECK(cudaMalloc(&A, ha.size() * 4));
  CHECK(cudaMalloc(&B, hb.size() * 4));
  CHECK(cudaMalloc(&C, (size_t)m * n * 4));
  CHECK(cudaMalloc(&ref, (size_t)m * n * 4));
  CHECK(cudaMemcpy(A, ha.data(), ha.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), hb.size() * 4, cudaMemcpyHostToDevice));
  const dim3 grid(n / 128, m / 128);
  const int shared = 33792;  // the entry's stages (its dynamic shared memory)
  CHECK(cudaFuncSetAttribute(MatMulBtCell_tiled128, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  CHECK(cudaFuncSetAttribute(wholeForm, cudaFuncAttributeMaxDynamicSharedMemorySize, shared));
  auto entry = [&] { MatMulBtCell_tiled128<<<grid, 256, shared>>>(A, B, nk, ref, m, n, 0); };
  entry();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> want((size_t)m * n), got((size_t)m * n);
  CHECK(cudaMemcpy(want.data(), ref, want.size() * 4, cudaMemcpyDeviceToHost));
  using Form = void (*)(const float*, const float*, int, float*, int);
  const std::pair<const char*, Form> forms[] = {{"paired", paired},
                                                {"turned", turned},
                                                {"rows<false, 4>", rows<false, 4>},
                                                {"rows<true, 4>", rows<true, 4>},
                                                {"rows<false, 2>", rows<false, 2>},
                                                {"rows<true, 2>", rows<true, 2>}};
  const double flop = 2.0 * m * n * nk;
  for (int round = 0; round < 2; ++round) {
    const double entryMs = medianMs(entry, 15);
    std::printf("MatMulBtCell_tiled128  %.3f ms  %.1f TFLOP/s\n", entryMs, flop / entryMs / 1e9);
    auto time = [&](const char* name, auto&& launch) {
      CHECK(cudaMemset(C, 0xff, got.size() * 4));
      const double ms = medianMs(launch, 15);
      CHECK(cudaMemcpy(got.data(), C, got.size() * 4, cudaMemcpyDeviceToHost));
      std::printf("%-22s %.3f ms  %.1f TFLOP/s  %s\n", name, ms, flop / ms / 1e9,
                  std::memcmp(got.data(), want.data(), got.size() * 4) ? "DIFFERENT BITS" : "same bits");
    };
    time("whole form alone", [&] { wholeForm<<<grid, 256, shared>>>(A, B, nk, C, n); });
    for (const auto& [name, form] : forms) {
      const Form f = form;
      time(name, [&] { f<<<grid, 256>>>(A, B, nk, C, n); });
    }
  }
  return 0;
}
