// Where the 27-point 3-D convolution's time goes, and what a stencil entry should do about it. The
// entry as culift emits it (`Conv3D_walk3d`: each thread walks the planes of its slab and reads
// its 27 neighbours through the cache, 27 loads per output) against hand-written forms of the same
// per-output expression (the same 27 products added in the source's order: the same bits):
//
// - regs<P>:  each thread keeps the 3 x 3 windows of three planes in registers and loads only the
//             next plane's window per output (9 loads), slabs of P planes;
// - flat<P>:  lean<P> in every block (tests per thread and plane, not per block; see convFlat);
// - quad<P>:  flat<P> with four outputs per thread along k, sharing each plane's loads;
// - pipe<P, D, R>: quad<P> with the block's planes copied into shared memory asynchronously D
//             planes ahead (R: each thread's window of the newest plane into a ring of registers;
//             otherwise all three planes' windows read from shared memory per output plane);
// - stream<P, RJ, D>: each output's sum built as its planes arrive (plane p starts output p + 1,
//             continues p and finishes p - 1: the source's order), three sums per output in
//             registers and no ring of windows; 4 x RJ outputs a thread, the tiles D planes ahead;
// - streamw<P, RJ, D, PX, NT>: stream<P, RJ, D> (PX = 32, NT = 256) with PX threads along k and NT
//             a block: tiles of (NT / PX) RJ x 4 PX outputs (8 and 128: 32 x 32 for RJ = 2; 8 and
//             64 with RJ = 4: 16 outputs a thread, 159-188 registers, 256 threads an SM);
// - lean<P>:  regs<P> with fewer instructions per output (no tests inside the extents, weights in
//             registers, the plane loop unrolled by three);
// - smem<P>:  the block copies each plane's tile and its halo (10 x 34) into a ring of four
//             planes in shared memory, one barrier per plane; 27 shared loads per output;
// - both<P>:  the newest plane's tile in shared memory (double-buffered), each thread's 9 values
//             of it into registers, three planes of windows in registers; 9 shared loads per output.
//
// Loads of a halo outside the extents are not made (the border outputs return their own element,
// as the kernel does). On the GPU machine,
// `OUT=... scripts/gpu-harnesses.sh` builds and runs it; standalone, over the entries as culift emits them:
//
//   culift emit bench/gpu/stencil_kernels.hpp -o .gpu/stencil.cu -- -Iinclude   (development machine)
//   nvcc -O3 -fmad=false -arch=sm_90 -I.gpu -Ibench/gpu -o conv3d_variants bench/gpu/conv3d_variants.cu &&
//   ./conv3d_variants
//
// (-fmad=false: the runtime compiles with it, so that every product is rounded before its sum.)
//
// The emitted `Conv3D_win3d4` and `Conv3D_win3d` (the windows in registers, four outputs along k a
// thread or one: the plan culift now takes first) are timed beside the cache walk.
//
// Measured on the H200 (2026-12-04, -fmad=false): the entry 0.158 ms (25 % of a float4 copy of
// the same bytes); lean<16> 0.104 ms (38 %), with the same bits. Nsight Compute puts both at the
// instruction issue limit, not at memory: regs<16> (fmad on) issued 102.5 M instructions (199 per
// warp of outputs; issue slots 79 % busy, DRAM 14 %), lean<16> 72.9 M (141 per warp of outputs,
// 45 % occupancy), against 54 floating-point operations and 9 loads per output. A stencil entry
// at 80 % of copy has to come close to that floor. lean<P>'s main loop is 73 PTX instructions per
// output, but 41 % of its blocks hold a border output and take regs<P>'s path (about 199 per
// output): flat<P> (not measured yet) takes the lean path in every block, with tests per thread
// and plane (about 98 PTX instructions per output).
//
// Every form runs over slabs of 8 to 64 planes (grid z 32 down to 4; the streamed forms first say
// how many blocks a multiprocessor holds and how many a plane takes). Each line: the variant, its
// grid, the median of 20 launches, the bandwidth counting A read once and the output written once,
// its share of a float4 copy of the same bytes, and whether every output has the emitted entry's
// bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <vector>

#include "stencil.cu"

#include "cuda_check.cuh"

namespace {

constexpr int kTx = 32, kTy = 8;  // outputs per block along k and j (a warp per row), as the entry

// The kernel's expression over the window values v[(di + 1) * 9 + (dj + 1) * 3 + (dk + 1)].
__device__ __forceinline__ float window27(const float* __restrict__ w, const float (&v)[27]) {
  float s = culift_zero(0.0f);
#pragma unroll
  for (int t = 0; t < 27; ++t) s += w[t] * v[t];
  return s;
}

__device__ __forceinline__ bool border(int i, int j, int k, int ni, int nj, int nk) {
  return i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1;
}

// Three planes of 3 x 3 windows in registers: p[0..8] plane i - 1, p[9..17] plane i, p[18..26] i + 1.
__device__ __forceinline__ void loadWindow(const float* __restrict__ A, int z, int j, int k, int ni, int nj, int nk,
                                           float* dst) {
#pragma unroll
  for (int dj = -1; dj <= 1; ++dj)
#pragma unroll
    for (int dk = -1; dk <= 1; ++dk) {
      const int jj = j + dj, kk = k + dk;
      const bool in = z >= 0 && z < ni && jj >= 0 && jj < nj && kk >= 0 && kk < nk;
      dst[(dj + 1) * 3 + dk + 1] = in ? A[((long long)z * nj + jj) * nk + kk] : 0.0f;
    }
}

// One thread's outputs (i, j, k) for i in [z0, z1), the windows of three planes in registers.
__device__ __forceinline__ void regsSlab(const float* __restrict__ A, const float* __restrict__ w, int ni, int nj,
                                         int nk, float* __restrict__ out, int j, int k, int z0, int z1) {
  if (j >= nj || k >= nk || z0 >= z1) return;
  float v[27];
  loadWindow(A, z0 - 1, j, k, ni, nj, nk, v);
  loadWindow(A, z0, j, k, ni, nj, nk, v + 9);
#pragma unroll 1
  for (int i = z0; i < z1; ++i) {
    loadWindow(A, i + 1, j, k, ni, nj, nk, v + 18);
    const float r = border(i, j, k, ni, nj, nk) ? v[13] : window27(w, v);
    out[((long long)i * nj + j) * nk + k] = r;
#pragma unroll
    for (int t = 0; t < 18; ++t) v[t] = v[t + 9];
  }
}

__global__ void __launch_bounds__(256) convRegs(const float* __restrict__ A, const float* __restrict__ w, int ni,
                                                int nj, int nk, float* __restrict__ out, int per) {
  const int k = blockIdx.x * kTx + threadIdx.x % kTx, j = blockIdx.y * kTy + threadIdx.x / kTx;
  const int z0 = blockIdx.z * per;
  regsSlab(A, w, ni, nj, nk, out, j, k, z0, min(ni, z0 + per));
}

// The tile of plane z with its halo: (kTy + 2) x (kTx + 2), element (y, x) at j0 - 1 + y, k0 - 1 + x.
constexpr int kHy = kTy + 2, kHx = kTx + 2, kPlane = kHy * kHx;
__device__ __forceinline__ void copyPlane(const float* __restrict__ A, int z, int j0, int k0, int ni, int nj, int nk,
                                          float* tile) {
  for (int e = threadIdx.x; e < kPlane; e += blockDim.x) {
    const int y = e / kHx, x = e % kHx, jj = j0 - 1 + y, kk = k0 - 1 + x;
    if (z >= 0 && z < ni && jj >= 0 && jj < nj && kk >= 0 && kk < nk) tile[e] = A[((long long)z * nj + jj) * nk + kk];
  }
}

__global__ void __launch_bounds__(256) convSmem(const float* __restrict__ A, const float* __restrict__ w, int ni,
                                                int nj, int nk, float* __restrict__ out, int per) {
  __shared__ float ring[4][kPlane];
  const int tx = threadIdx.x % kTx, ty = threadIdx.x / kTx;
  const int k0 = blockIdx.x * kTx, j0 = blockIdx.y * kTy, k = k0 + tx, j = j0 + ty;
  const int z0 = blockIdx.z * per, z1 = min(ni, z0 + per);
  if (z0 >= z1) return;
  copyPlane(A, z0 - 1, j0, k0, ni, nj, nk, ring[(z0 + 3) & 3]);
  copyPlane(A, z0, j0, k0, ni, nj, nk, ring[z0 & 3]);
#pragma unroll 1
  for (int i = z0; i < z1; ++i) {
    copyPlane(A, i + 1, j0, k0, ni, nj, nk, ring[(i + 1) & 3]);
    __syncthreads();
    if (j < nj && k < nk) {
      const float* p[3] = {ring[(i + 3) & 3], ring[i & 3], ring[(i + 1) & 3]};
      float r;
      if (border(i, j, k, ni, nj, nk)) {
        r = p[1][(ty + 1) * kHx + tx + 1];
      } else {
        float v[27];
#pragma unroll
        for (int d = 0; d < 3; ++d)
#pragma unroll
          for (int dj = 0; dj < 3; ++dj)
#pragma unroll
            for (int dk = 0; dk < 3; ++dk) v[d * 9 + dj * 3 + dk] = p[d][(ty + dj) * kHx + tx + dk];
        r = window27(w, v);
      }
      out[((long long)i * nj + j) * nk + k] = r;
    }
  }
}

__global__ void __launch_bounds__(256) convBoth(const float* __restrict__ A, const float* __restrict__ w, int ni,
                                                int nj, int nk, float* __restrict__ out, int per) {
  __shared__ float buf[2][kPlane];
  const int tx = threadIdx.x % kTx, ty = threadIdx.x / kTx;
  const int k0 = blockIdx.x * kTx, j0 = blockIdx.y * kTy, k = k0 + tx, j = j0 + ty;
  const int z0 = blockIdx.z * per, z1 = min(ni, z0 + per);
  if (z0 >= z1) return;
  float v[27];
  auto take = [&](const float* tile, float* dst) {
#pragma unroll
    for (int dj = 0; dj < 3; ++dj)
#pragma unroll
      for (int dk = 0; dk < 3; ++dk) dst[dj * 3 + dk] = tile[(ty + dj) * kHx + tx + dk];
  };
  copyPlane(A, z0 - 1, j0, k0, ni, nj, nk, buf[0]);
  copyPlane(A, z0, j0, k0, ni, nj, nk, buf[1]);
  __syncthreads();
  take(buf[0], v);
  take(buf[1], v + 9);
#pragma unroll 1
  for (int i = z0; i < z1; ++i) {
    __syncthreads();  // every thread has taken its window of the buffer the next copy overwrites
    copyPlane(A, i + 1, j0, k0, ni, nj, nk, buf[(i - z0) & 1]);
    __syncthreads();
    take(buf[(i - z0) & 1], v + 18);
    if (j < nj && k < nk) out[((long long)i * nj + j) * nk + k] = border(i, j, k, ni, nj, nk) ? v[13] : window27(w, v);
#pragma unroll
    for (int t = 0; t < 18; ++t) v[t] = v[t + 9];
  }
}

// lean<P>: regs<P> with the instructions per output cut down. A block whose windows lie inside
// the extents (every block but those at a border) loads without tests, through one row pointer
// per plane row (offsets of +-1 element are immediates); the 27 weights stay in registers; the
// plane loop is unrolled by three so that the three windows rotate by renaming, not by moves.
// Border blocks take regs<P>'s path.
__device__ __forceinline__ void leanWindow(const float* __restrict__ p, long long row, float (&dst)[9]) {
  const float* r0 = p - row;
  const float* r2 = p + row;
  dst[0] = r0[-1], dst[1] = r0[0], dst[2] = r0[1];
  dst[3] = p[-1], dst[4] = p[0], dst[5] = p[1];
  dst[6] = r2[-1], dst[7] = r2[0], dst[8] = r2[1];
}

__device__ __forceinline__ float leanSum(const float (&w)[27], const float (&a)[9], const float (&b)[9],
                                         const float (&c)[9]) {
  float s = culift_zero(0.0f);
#pragma unroll
  for (int t = 0; t < 9; ++t) s += w[t] * a[t];
#pragma unroll
  for (int t = 0; t < 9; ++t) s += w[9 + t] * b[t];
#pragma unroll
  for (int t = 0; t < 9; ++t) s += w[18 + t] * c[t];
  return s;
}

__global__ void __launch_bounds__(256) convLean(const float* __restrict__ A, const float* __restrict__ wg, int ni,
                                                int nj, int nk, float* __restrict__ out, int per) {
  const int k0 = blockIdx.x * kTx, j0 = blockIdx.y * kTy;
  const int k = k0 + threadIdx.x % kTx, j = j0 + threadIdx.x / kTx;
  const int z0 = blockIdx.z * per, z1 = min(ni, z0 + per);
  const bool inside = z0 >= 1 && z1 <= ni - 1 && j0 >= 1 && j0 + kTy <= nj - 1 && k0 >= 1 && k0 + kTx <= nk - 1;
  if (!inside) {
    regsSlab(A, wg, ni, nj, nk, out, j, k, z0, z1);
    return;
  }
  float w[27];
#pragma unroll
  for (int t = 0; t < 27; ++t) w[t] = wg[t];
  const long long row = nk, plane = (long long)nj * nk;
  const float* p = A + ((long long)(z0 - 1) * nj + j) * nk + k;
  float* o = out + ((long long)z0 * nj + j) * nk + k;
  float a[9], b[9], c[9];
  leanWindow(p, row, a);
  p += plane;
  leanWindow(p, row, b);
  int i = z0;
#pragma unroll 1
  for (; i + 3 <= z1; i += 3) {
    p += plane;
    leanWindow(p, row, c);
    o[0] = leanSum(w, a, b, c);
    p += plane;
    leanWindow(p, row, a);
    o[plane] = leanSum(w, b, c, a);
    p += plane;
    leanWindow(p, row, b);
    o[2 * plane] = leanSum(w, c, a, b);
    o += 3 * plane;
  }
  for (; i < z1; ++i) {
    p += plane;
    leanWindow(p, row, c);
    o[0] = leanSum(w, a, b, c);
    o += plane;
#pragma unroll
    for (int t = 0; t < 9; ++t) a[t] = b[t], b[t] = c[t];
  }
}

// flat<P>: lean<P> in every block. A thread loads a plane's window without tests when the window
// lies inside the array (every plane but those before the first and after the last, and every
// row but the array's first and last), else element by element with the array's bounds; the
// border outputs (i, j or k at an end) take their own element, as the kernel does, by a select.
// 41 % of lean<P>'s blocks (those with a border output) took regs<P>'s path: this one has none.
__device__ __forceinline__ void boundedWindow(const float* __restrict__ A, long long c, long long row, long long count,
                                              float (&dst)[9]) {
#pragma unroll
  for (int dj = -1; dj <= 1; ++dj)
#pragma unroll
    for (int dk = -1; dk <= 1; ++dk) {
      const long long e = c + dj * row + dk;
      dst[(dj + 1) * 3 + dk + 1] = e >= 0 && e < count ? A[e] : 0.0f;
    }
}

__device__ __forceinline__ void flatWindow(const float* __restrict__ A, long long c, long long row, long long count,
                                           float (&dst)[9]) {
  if (c - row - 1 >= 0 && c + row + 1 < count) leanWindow(A + c, row, dst);
  else boundedWindow(A, c, row, count, dst);
}

__global__ void __launch_bounds__(256) convFlat(const float* __restrict__ A, const float* __restrict__ wg, int ni,
                                                int nj, int nk, float* __restrict__ out, int per) {
  const int k = blockIdx.x * kTx + threadIdx.x % kTx, j = blockIdx.y * kTy + threadIdx.x / kTx;
  const int z0 = blockIdx.z * per, z1 = min(ni, z0 + per);
  if (j >= nj || k >= nk || z0 >= z1) return;
  float w[27];
#pragma unroll
  for (int t = 0; t < 27; ++t) w[t] = wg[t];
  const long long row = nk, plane = (long long)nj * nk, count = (long long)ni * plane;
  const bool edge = j == 0 || j == nj - 1 || k == 0 || k == nk - 1;
  long long c = (long long)(z0 - 1) * plane + (long long)j * nk + k;  // the window's centre, plane z0 - 1
  float a[9], b[9], c9[9];
  flatWindow(A, c, row, count, a);
  c += plane;
  flatWindow(A, c, row, count, b);
  // Output z takes the centre of its own plane (b after the rotation) at a border.
  auto result = [&](int z, const float(&p)[9], const float(&q)[9], const float(&r)[9]) {
    const float s = leanSum(w, p, q, r);
    return edge || z == 0 || z == ni - 1 ? q[4] : s;
  };
  int i = z0;
#pragma unroll 1
  for (; i + 3 <= z1; i += 3) {
    flatWindow(A, c + plane, row, count, c9);
    out[c] = result(i, a, b, c9);
    flatWindow(A, c + 2 * plane, row, count, a);
    out[c + plane] = result(i + 1, b, c9, a);
    flatWindow(A, c + 3 * plane, row, count, b);
    out[c + 2 * plane] = result(i + 2, c9, a, b);
    c += 3 * plane;
  }
  for (; i < z1; ++i) {
    flatWindow(A, c + plane, row, count, c9);
    out[c] = result(i, a, b, c9);
    c += plane;
#pragma unroll
    for (int t = 0; t < 9; ++t) a[t] = b[t], b[t] = c9[t];
  }
}

// quad<P>: flat<P> with four outputs per thread along k. A plane's window for outputs k0 .. k0 + 3
// is 3 rows of 6 values (k0 - 1 .. k0 + 4): per row one 16-byte load and two 4-byte loads, shared
// by the four outputs (2.25 loads per output, against 9); the four sums are still each output's 27
// products in the source's order. Needs nk a multiple of 4 (aligned rows); a block is 16 quads
// (64 outputs along k) by 16 rows.
constexpr int kQx = 16, kQy = 16;

__device__ __forceinline__ void quadWindow(const float* __restrict__ A, long long c, long long row, long long count,
                                           float (&dst)[18]) {
  if (c - row - 1 >= 0 && c + row + 4 < count) {
#pragma unroll
    for (int dj = 0; dj < 3; ++dj) {
      const float* r = A + c + (dj - 1) * row;
      const float4 m = *reinterpret_cast<const float4*>(r);
      dst[dj * 6] = r[-1], dst[dj * 6 + 1] = m.x, dst[dj * 6 + 2] = m.y, dst[dj * 6 + 3] = m.z;
      dst[dj * 6 + 4] = m.w, dst[dj * 6 + 5] = r[4];
    }
  } else {
#pragma unroll
    for (int dj = 0; dj < 3; ++dj)
#pragma unroll
      for (int x = 0; x < 6; ++x) {
        const long long e = c + (dj - 1) * row + x - 1;
        dst[dj * 6 + x] = e >= 0 && e < count ? A[e] : 0.0f;
      }
  }
}

// Output k0 + t of the plane whose window is q (p the plane before, r the one after).
template <int T> __device__ __forceinline__ float quadSum(const float (&w)[27], const float (&p)[18],
                                                          const float (&q)[18], const float (&r)[18]) {
  float s = culift_zero(0.0f);
#pragma unroll
  for (int dj = 0; dj < 3; ++dj)
#pragma unroll
    for (int dk = 0; dk < 3; ++dk) s += w[dj * 3 + dk] * p[dj * 6 + T + dk];
#pragma unroll
  for (int dj = 0; dj < 3; ++dj)
#pragma unroll
    for (int dk = 0; dk < 3; ++dk) s += w[9 + dj * 3 + dk] * q[dj * 6 + T + dk];
#pragma unroll
  for (int dj = 0; dj < 3; ++dj)
#pragma unroll
    for (int dk = 0; dk < 3; ++dk) s += w[18 + dj * 3 + dk] * r[dj * 6 + T + dk];
  return s;
}

// The four outputs k0 .. k0 + 3 of a plane whose window is q: a border output (a border plane or
// row, `edge`, or the row's first or last column) takes its own element.
__device__ __forceinline__ float4 quadOutputs(const float (&w)[27], const float (&p)[18], const float (&q)[18],
                                              const float (&r)[18], bool edge, bool first, bool last) {
  float4 v;
  v.x = edge || first ? q[7] : quadSum<0>(w, p, q, r);
  v.y = edge ? q[8] : quadSum<1>(w, p, q, r);
  v.z = edge ? q[9] : quadSum<2>(w, p, q, r);
  v.w = edge || last ? q[10] : quadSum<3>(w, p, q, r);
  return v;
}

__global__ void __launch_bounds__(256) convQuad(const float* __restrict__ A, const float* __restrict__ wg, int ni,
                                                int nj, int nk, float* __restrict__ out, int per) {
  const int k0 = (blockIdx.x * kQx + threadIdx.x % kQx) * 4, j = blockIdx.y * kQy + threadIdx.x / kQx;
  const int z0 = blockIdx.z * per, z1 = min(ni, z0 + per);
  if (j >= nj || k0 >= nk || z0 >= z1) return;
  float w[27];
#pragma unroll
  for (int t = 0; t < 27; ++t) w[t] = wg[t];
  const long long row = nk, plane = (long long)nj * nk, count = (long long)ni * plane;
  const bool jEdge = j == 0 || j == nj - 1, first = k0 == 0, last = k0 + 4 == nk;
  long long c = (long long)(z0 - 1) * plane + (long long)j * nk + k0;  // plane z0 - 1, output k0
  float a[18], b[18], d[18];
  quadWindow(A, c, row, count, a);
  c += plane;
  quadWindow(A, c, row, count, b);
  // The four outputs of plane z (window q): a border output takes its own element.
  auto store = [&](int z, long long at, const float(&p)[18], const float(&q)[18], const float(&r)[18]) {
    *reinterpret_cast<float4*>(out + at) = quadOutputs(w, p, q, r, jEdge || z == 0 || z == ni - 1, first, last);
  };
  int i = z0;
#pragma unroll 1
  for (; i + 3 <= z1; i += 3) {
    quadWindow(A, c + plane, row, count, d);
    store(i, c, a, b, d);
    quadWindow(A, c + 2 * plane, row, count, a);
    store(i + 1, c + plane, b, d, a);
    quadWindow(A, c + 3 * plane, row, count, b);
    store(i + 2, c + 2 * plane, d, a, b);
    c += 3 * plane;
  }
  for (; i < z1; ++i) {
    quadWindow(A, c + plane, row, count, d);
    store(i, c, a, b, d);
    c += plane;
#pragma unroll
    for (int t = 0; t < 18; ++t) a[t] = b[t], b[t] = d[t];
  }
}

// pipe<P, D, R>: quad<P>'s four outputs per thread along k, the block's planes copied into shared
// memory by asynchronous 16-byte copies D planes ahead (a ring of planes of the 8 x 128 tile and
// its halo, 10 rows x 136 columns). R: each thread's window of the newest plane read from shared
// memory into a registers' ring of three planes (D + 1 planes in shared memory); otherwise all
// three planes' windows read from shared memory for each output plane (D + 3 planes). One barrier
// per plane. Needs nk a multiple of 4.
constexpr int kPx = 32, kPy = 8, kPRows = kPy + 2, kPCols = kPx * 4 + 8;

__device__ __forceinline__ void cpAsync16(unsigned dst, const float* src, bool in) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(in ? 16 : 0));
}
__device__ __forceinline__ void cpCommit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cpWait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

// A thread's share of a plane's copy into a tile of kRows rows of kPCols floats: chunks
// threadIdx.x, + 256, ... of the tile's 16-byte chunks.
template <int kRows> struct TileChunks {
  static constexpr int kChunks = kRows * kPCols / 4, kPer = (kChunks + 255) / 256;
  long long off[kPer];  // element offsets within a plane
  unsigned at[kPer];    // byte offsets within a tile
  bool in[kPer];        // inside the (j, k) extents
  __device__ TileChunks(int j0, int k0, int nj, int nk) {
#pragma unroll
    for (int c = 0; c < kPer; ++c) {
      const int e = threadIdx.x + 256 * c, y = e / (kPCols / 4), x = e % (kPCols / 4);
      const int jj = j0 - 1 + y, kk = k0 - 4 + 4 * x;
      in[c] = e < kChunks && jj >= 0 && jj < nj && kk >= 0 && kk < nk;
      off[c] = in[c] ? (long long)jj * nk + kk : 0;
      at[c] = 16u * e;
    }
  }
  // Copies plane z into the tile at shared address `tile` (a chunk outside the array: zeros), then
  // commits the group (an empty one past the slab, so that the groups stay counted).
  __device__ __forceinline__ void copy(const float* __restrict__ A, long long plane, int z, int zEnd, int ni,
                                       unsigned tile) const {
    if (z < zEnd) {
      const bool zin = z >= 0 && z < ni;
      const float* base = A + (zin ? (long long)z * plane : 0);
#pragma unroll
      for (int c = 0; c < kPer; ++c)
        if (c + 1 < kPer || threadIdx.x + 256 * c < kChunks) cpAsync16(tile + at[c], base + off[c], zin && in[c]);
    }
    cpCommit();
  }
};
using PipeChunks = TileChunks<kPRows>;

__device__ __forceinline__ void pipeWindow(const float* tile, int ty, int tx, float (&dst)[18]) {
#pragma unroll
  for (int dj = 0; dj < 3; ++dj) {
    const float* r = tile + (ty + dj) * kPCols + 4 + 4 * tx;
    const float4 m = *reinterpret_cast<const float4*>(r);
    dst[dj * 6] = r[-1], dst[dj * 6 + 1] = m.x, dst[dj * 6 + 2] = m.y, dst[dj * 6 + 3] = m.z;
    dst[dj * 6 + 4] = m.w, dst[dj * 6 + 5] = r[4];
  }
}

template <int D, bool R> __global__ void __launch_bounds__(256, R ? 3 : 4)
    convPipe(const float* __restrict__ A, const float* __restrict__ wg, int ni, int nj, int nk, float* __restrict__ out,
             int per) {
  constexpr int S = R ? D + 1 : D + 3, kTile = kPRows * kPCols;
  __shared__ __align__(16) float ring[S * kTile];
  const int tx = threadIdx.x % kPx, ty = threadIdx.x / kPx;
  const int k0 = blockIdx.x * kPx * 4, j0 = blockIdx.y * kPy, k = k0 + 4 * tx, j = j0 + ty;
  const int z0 = blockIdx.z * per, z1 = min(ni, z0 + per);
  if (z0 >= z1) return;
  float w[27];
#pragma unroll
  for (int t = 0; t < 27; ++t) w[t] = wg[t];
  const long long plane = (long long)nj * nk;
  const PipeChunks chunks(j0, k0, nj, nk);
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(ring));
  // Plane p in slot (p - z0 + 1) % S.
  auto slot = [&](int p) { return (p - z0 + 1) % S; };
#pragma unroll
  for (int d = 0; d < D; ++d) chunks.copy(A, plane, z0 - 1 + d, z1 + 1, ni, base + 4u * kTile * d);
  const bool live = j < nj && k < nk, jEdge = j == 0 || j == nj - 1, first = k == 0, last = k + 4 == nk;
  float* const o = out + (long long)j * nk + k;
  auto arrive = [&](int p) {  // plane p readable; the copy of plane p + D started
    cpWait<D - 1>();
    __syncthreads();
    chunks.copy(A, plane, p + D, z1 + 1, ni, base + 4u * kTile * slot(p + D));
  };
  auto store = [&](int z, const float(&p)[18], const float(&q)[18], const float(&r)[18]) {
    if (live)
      *reinterpret_cast<float4*>(o + z * plane) = quadOutputs(w, p, q, r, jEdge || z == 0 || z == ni - 1, first, last);
  };
  if constexpr (R) {
    float a[18], b[18], c[18];
    arrive(z0 - 1);
    pipeWindow(ring + kTile * slot(z0 - 1), ty, tx, a);
    arrive(z0);
    pipeWindow(ring + kTile * slot(z0), ty, tx, b);
    int i = z0;
#pragma unroll 1
    for (; i + 3 <= z1; i += 3) {
      arrive(i + 1);
      pipeWindow(ring + kTile * slot(i + 1), ty, tx, c);
      store(i, a, b, c);
      arrive(i + 2);
      pipeWindow(ring + kTile * slot(i + 2), ty, tx, a);
      store(i + 1, b, c, a);
      arrive(i + 3);
      pipeWindow(ring + kTile * slot(i + 3), ty, tx, b);
      store(i + 2, c, a, b);
    }
    for (; i < z1; ++i) {
      arrive(i + 1);
      pipeWindow(ring + kTile * slot(i + 1), ty, tx, c);
      store(i, a, b, c);
#pragma unroll
      for (int t = 0; t < 18; ++t) a[t] = b[t], b[t] = c[t];
    }
  } else {
    arrive(z0 - 1);
    arrive(z0);
#pragma unroll 1
    for (int i = z0; i < z1; ++i) {
      arrive(i + 1);
      float a[18], b[18], c[18];
      pipeWindow(ring + kTile * slot(i - 1), ty, tx, a);
      pipeWindow(ring + kTile * slot(i), ty, tx, b);
      pipeWindow(ring + kTile * slot(i + 1), ty, tx, c);
      store(i, a, b, c);
    }
  }
  cpWait<0>();
}

// a plus the nine products of one plane's weights (from w[W0]) with output (jr, q)'s window rows, in
// the source's order.
template <int RJ, int W0> __device__ __forceinline__ float planeTerms(const float (&w)[27],
                                                                      const float (&win)[RJ + 2][6], int jr, int q,
                                                                      float a) {
#pragma unroll
  for (int dj = 0; dj < 3; ++dj)
#pragma unroll
    for (int dk = 0; dk < 3; ++dk) a += w[W0 + dj * 3 + dk] * win[jr + dj][q + dk];
  return a;
}

// streamw<RJ, D, PX, NT>: each output's sum built as its planes arrive. Plane p, once in shared
// memory, gives output plane p + 1 its first nine products (di = -1, from zero), output plane p its
// next nine (di = 0) and output plane p - 1 its last nine (di = +1), which is the order of the
// source's loops, so each output's operations are the per-thread entry's. A thread keeps three sums
// per output in registers (no ring of windows): 4 outputs along k x RJ rows along j, its window of
// plane p (RJ + 2 rows x 6 columns) read from the tile once; the block's tile of (NT / PX) RJ + 2
// rows x 4 PX + 8 columns copied asynchronously D planes ahead into a ring of D + 2 tiles (the
// output's own element, for a border output, read from plane p - 1's tile). Needs nk a multiple of
// 4. PX threads along k (four outputs each), NT threads a block: stream<P, RJ, D> is PX = 32 and NT
// = 256 (16 x 128 outputs for RJ = 2), which idles a quarter of the second column of blocks at nk =
// 224; 32 columns (224 = 7 x 32) and 32 rows (288 = 9 x 32) leave no thread idle.
template <int RJ, int PX, int NT> struct WideTile {
  static constexpr int kPy = NT / PX, kRows = kPy * RJ + 2, kCols = PX * 4 + 8, kFloats = kRows * kCols;
  static constexpr int kChunks = kRows * kCols / 4, kPer = (kChunks + NT - 1) / NT;
};

template <int RJ, int D, int PX, int NT> __global__ void __launch_bounds__(NT, (RJ == 1   ? 1024
                                                                                : RJ == 2 ? 512
                                                                                          : 256) /
                                                                                   NT)
    convStreamW(const float* __restrict__ A, const float* __restrict__ wg, int ni, int nj, int nk,
                float* __restrict__ out, int per) {
  using T = WideTile<RJ, PX, NT>;
  constexpr int S = D + 2;
  extern __shared__ __align__(16) float ring[];
  const int tx = threadIdx.x % PX, ty = threadIdx.x / PX;
  const int k0 = blockIdx.x * PX * 4, j0 = blockIdx.y * T::kPy * RJ, k = k0 + 4 * tx, jt = j0 + ty * RJ;
  const int z0 = blockIdx.z * per, z1 = min(ni, z0 + per);
  if (z0 >= z1) return;
  float w[27];
#pragma unroll
  for (int t = 0; t < 27; ++t) w[t] = wg[t];
  const long long plane = (long long)nj * nk;
  long long off[T::kPer];
  unsigned at[T::kPer];
  bool in[T::kPer];
#pragma unroll
  for (int c = 0; c < T::kPer; ++c) {
    const int e = threadIdx.x + NT * c, y = e / (T::kCols / 4), x = e % (T::kCols / 4);
    const int jj = j0 - 1 + y, kk = k0 - 4 + 4 * x;
    in[c] = e < T::kChunks && jj >= 0 && jj < nj && kk >= 0 && kk < nk;
    off[c] = in[c] ? (long long)jj * nk + kk : 0;
    at[c] = 16u * e;
  }
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(ring));
  auto copy = [&](int z) {
    if (z < z1 + 1) {
      const bool zin = z >= 0 && z < ni;
      const float* src = A + (zin ? (long long)z * plane : 0);
      const unsigned tile = base + 4u * T::kFloats * ((z - z0 + 1) % S);
#pragma unroll
      for (int c = 0; c < T::kPer; ++c)
        if (c + 1 < T::kPer || threadIdx.x + NT * c < T::kChunks) cpAsync16(tile + at[c], src + off[c], zin && in[c]);
    }
    cpCommit();
  };
#pragma unroll
  for (int d = 0; d < D; ++d) copy(z0 - 1 + d);
  const bool live = k < nk, first = k == 0, last = k + 4 == nk;
  float s[3][RJ][4];
  auto step = [&](int p, auto slotConst) {
    constexpr int t = decltype(slotConst)::value;
    cpWait<D - 1>();
    __syncthreads();
    copy(p + D);
    const float* tile = ring + T::kFloats * ((p - z0 + 1) % S);
    float win[RJ + 2][6];
#pragma unroll
    for (int r = 0; r < RJ + 2; ++r) {
      const float* row = tile + (ty * RJ + r) * T::kCols + 4 + 4 * tx;
      const float4 m = *reinterpret_cast<const float4*>(row);
      win[r][0] = row[-1], win[r][1] = m.x, win[r][2] = m.y, win[r][3] = m.z, win[r][4] = m.w, win[r][5] = row[4];
    }
    constexpr int nx = (t + 1) % 3, cu = t, pv = (t + 2) % 3;
    if (p + 1 < z1) {
#pragma unroll
      for (int jr = 0; jr < RJ; ++jr)
#pragma unroll
        for (int q = 0; q < 4; ++q) s[nx][jr][q] = planeTerms<RJ, 0>(w, win, jr, q, culift_zero(0.0f));
    }
    if (p >= z0 && p < z1) {
#pragma unroll
      for (int jr = 0; jr < RJ; ++jr)
#pragma unroll
        for (int q = 0; q < 4; ++q) s[cu][jr][q] = planeTerms<RJ, 9>(w, win, jr, q, s[cu][jr][q]);
    }
    if (p > z0) {
      const float* own = ring + T::kFloats * ((p - z0) % S);
      const bool zEdge = p - 1 == 0 || p - 1 == ni - 1;
#pragma unroll
      for (int jr = 0; jr < RJ; ++jr) {
        float v[4];
#pragma unroll
        for (int q = 0; q < 4; ++q) v[q] = planeTerms<RJ, 18>(w, win, jr, q, s[pv][jr][q]);
        const int j = jt + jr;
        if (live && j < nj) {
          const float4 e = *reinterpret_cast<const float4*>(own + (ty * RJ + jr + 1) * T::kCols + 4 + 4 * tx);
          const bool edge = zEdge || j == 0 || j == nj - 1;
          float4 o;
          o.x = edge || first ? e.x : v[0];
          o.y = edge ? e.y : v[1];
          o.z = edge ? e.z : v[2];
          o.w = edge || last ? e.w : v[3];
          *reinterpret_cast<float4*>(out + (long long)(p - 1) * plane + (long long)j * nk + k) = o;
        }
      }
    }
  };
  using C0 = std::integral_constant<int, 0>;
  using C1 = std::integral_constant<int, 1>;
  using C2 = std::integral_constant<int, 2>;
#pragma unroll 1
  for (int p = z0 - 1; p <= z1; p += 3) {
    step(p, C2{});
    if (p + 1 > z1) break;
    step(p + 1, C0{});
    if (p + 2 > z1) break;
    step(p + 2, C1{});
  }
  cpWait<0>();
}

__global__ void copy4(const float4* __restrict__ a, float4* __restrict__ b, long long n4) {
  for (long long e = blockIdx.x * (long long)blockDim.x + threadIdx.x; e < n4; e += (long long)gridDim.x * blockDim.x)
    b[e] = a[e];
}

}  // namespace

// An argument, if any, is the extent along k in place of 224 (a multiple of 4).
int main(int argc, char** argv) {
  const int ni = 256, nj = 288, nk = argc > 1 ? std::atoi(argv[1]) : 224;
  std::printf("extents %d x %d x %d\n", ni, nj, nk);
  const long long cells = (long long)ni * nj * nk;
  std::vector<float> host(cells), hw(27);
  fillUniform(host, 2718281u);
  for (int t = 0; t < 27; ++t) hw[t] = 0.01f * (t + 1) - 0.1f;
  float *A, *w, *out, *ref;
  CHECK(cudaMalloc(&A, cells * 4));
  CHECK(cudaMalloc(&w, 27 * 4));
  CHECK(cudaMalloc(&out, cells * 4));
  CHECK(cudaMalloc(&ref, cells * 4));
  CHECK(cudaMemcpy(A, host.data(), cells * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw.data(), 27 * 4, cudaMemcpyHostToDevice));
  auto median = [](auto&& launch) { return medianMs(launch, 20); };
  const double copyMs = median([&] { copy4<<<132 * 8, 512>>>((const float4*)A, (float4*)out, cells / 4); });
  std::printf("copy (float4)            %.4f ms  %6.0f GB/s\n", copyMs, 8.0 * cells / (copyMs * 1e6));
  std::vector<float> got(cells), want(cells);
  const dim3 block(256), plane((nk + kTx - 1) / kTx, (nj + kTy - 1) / kTy);
  // The emitted entry, as the runtime launches it (slabs of 4 planes).
  const double entryMs = median(
      [&] { Conv3D_walk3d<<<dim3(plane.x, plane.y, (ni + 3) / 4), block>>>(A, w, ni, nj, nk, ref, ni, nj, nk, 0); });
  CHECK(cudaMemcpy(want.data(), ref, cells * 4, cudaMemcpyDeviceToHost));
  std::printf("Conv3D_walk3d            %.4f ms  %6.0f GB/s  %5.1f %% of copy\n", entryMs,
              8.0 * cells / (entryMs * 1e6), 100.0 * copyMs / entryMs);
  // The emitted windows in registers (four outputs along k a thread, and one), as the runtime
  // launches them (slabs of 16 planes), and with other slabs; the arrays' element counts after
  // culift_first.
  using Windows = void (*)(const float*, const float*, int, int, int, float*, long long, long long, long long,
                           long long, long long, long long, long long);
  // Each with its tile's columns and rows and its threads (the plan entry's tileCols, tileRows and
  // threads): four outputs along k and two along j a thread in tiles of 16 x 128 and of 32 x 32, and
  // one output.
  const std::tuple<const char*, Windows, unsigned, unsigned, unsigned> windows[] = {
      {"Conv3D_win3d4", Conv3D_win3d4, 4 * kTx, 2 * kTy, 256},
      {"Conv3D_win3d4n", Conv3D_win3d4n, 32, 32, 128},
      {"Conv3D_win3d", Conv3D_win3d, kTx, kTy, 256}};
  // Slabs of 8 to 64 planes: grid z 32 down to 4, the single waves of long slabs among them.
  const int pers[] = {8, 10, 12, 13, 15, 16, 19, 22, 24, 26, 29, 32, 37, 43, 52, 64};
  for (const auto& [name, fn, columns, rows, threads] : windows)
    for (int per : pers) {
      CHECK(cudaMemset(out, 0xff, cells * 4));
      const dim3 grid((nk + columns - 1) / columns, (nj + rows - 1) / rows, (ni + per - 1) / per);
      const Windows f = fn;
      const unsigned nt = threads;
      const double ms = median([&] { f<<<grid, nt>>>(A, w, ni, nj, nk, out, ni, nj, nk, 0, cells, 27, cells); });
      CHECK(cudaMemcpy(got.data(), out, cells * 4, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(got.data(), want.data(), cells * 4) == 0;
      std::printf("%-14s<%2d> grid z %4u  %.4f ms  %6.0f GB/s  %5.1f %% of copy  %s\n", name, per, grid.z, ms,
                  8.0 * cells / (ms * 1e6), 100.0 * copyMs / ms, same ? "same bits" : "DIFFERENT BITS");
    }
  // Each variant's (j, k) plane of blocks: quad<P> takes four outputs per thread along k.
  const dim3 quadPlane((nk / 4 + kQx - 1) / kQx, (nj + kQy - 1) / kQy);
  using Variant = void (*)(const float*, const float*, int, int, int, float*, int);
  const dim3 pipePlane((nk / 4 + kPx - 1) / kPx, (nj + kPy - 1) / kPy);
  const std::tuple<const char*, Variant, dim3> variants[] = {{"pipe<P,1,r>", convPipe<1, true>, pipePlane},
                                                             {"pipe<P,2,r>", convPipe<2, true>, pipePlane},
                                                             {"pipe<P,3,r>", convPipe<3, true>, pipePlane},
                                                             {"pipe<P,1,s>", convPipe<1, false>, pipePlane},
                                                             {"pipe<P,2,s>", convPipe<2, false>, pipePlane},
                                                             {"pipe<P,3,s>", convPipe<3, false>, pipePlane},
                                                             {"quad", convQuad, quadPlane},
                                                             {"flat", convFlat, plane},
                                                             {"lean", convLean, plane},
                                                             {"regs", convRegs, plane},
                                                             {"smem", convSmem, plane},
                                                             {"both", convBoth, plane}};
  // stream<RJ, D>: dynamic shared memory of D + 2 tiles.
  using Stream = void (*)(const float*, const float*, int, int, int, float*, int);
  const std::tuple<const char*, Stream, int, int> streams[] = {
      {"stream<P,1,2>", convStreamW<1, 2, kPx, 256>, 1, (2 + 2) * WideTile<1, kPx, 256>::kFloats * 4},
      {"stream<P,1,3>", convStreamW<1, 3, kPx, 256>, 1, (3 + 2) * WideTile<1, kPx, 256>::kFloats * 4},
      {"stream<P,2,2>", convStreamW<2, 2, kPx, 256>, 2, (2 + 2) * WideTile<2, kPx, 256>::kFloats * 4},
      {"stream<P,2,3>", convStreamW<2, 3, kPx, 256>, 2, (3 + 2) * WideTile<2, kPx, 256>::kFloats * 4}};
  for (const auto& [name, fn, rj, shared] : streams)
    for (int per : pers) {
      CHECK(cudaMemset(out, 0xff, cells * 4));
      const dim3 grid(pipePlane.x, (nj + kPy * rj - 1) / (kPy * rj), (ni + per - 1) / per);
      const Stream f = fn;
      const int sh = shared;
      CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, sh));
      int resident = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, f, 256, sh));
      if (per == pers[0]) std::printf("%s: %d blocks an SM, %u blocks a plane\n", name, resident, grid.x * grid.y);
      const double ms = median([&] { f<<<grid, block, sh>>>(A, w, ni, nj, nk, out, per); });
      CHECK(cudaMemcpy(got.data(), out, cells * 4, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(got.data(), want.data(), cells * 4) == 0;
      std::printf("%-13s<%2d> grid z %4u %.4f ms  %6.0f GB/s  %5.1f %% of copy  %s\n", name, per, grid.z, ms,
                  8.0 * cells / (ms * 1e6), 100.0 * copyMs / ms, same ? "same bits" : "DIFFERENT BITS");
    }
  // streamw<RJ, D, PX, NT>: the tile's shape as parameters (rows (NT / PX) RJ x columns 4 PX).
  struct Wide {
    const char* name;
    Stream f;
    int px, nt, rj, shared;
  };
  const Wide wides[] = {
      {"streamw<P,2,2,8,128>", convStreamW<2, 2, 8, 128>, 8, 128, 2, 4 * WideTile<2, 8, 128>::kFloats * 4},
      {"streamw<P,2,2,8,256>", convStreamW<2, 2, 8, 256>, 8, 256, 2, 4 * WideTile<2, 8, 256>::kFloats * 4},
      {"streamw<P,2,2,16,256>", convStreamW<2, 2, 16, 256>, 16, 256, 2, 4 * WideTile<2, 16, 256>::kFloats * 4},
      {"streamw<P,2,3,8,128>", convStreamW<2, 3, 8, 128>, 8, 128, 2, 5 * WideTile<2, 8, 128>::kFloats * 4},
      {"streamw<P,1,3,8,128>", convStreamW<1, 3, 8, 128>, 8, 128, 1, 5 * WideTile<1, 8, 128>::kFloats * 4},
      {"streamw<P,1,2,8,256>", convStreamW<1, 2, 8, 256>, 8, 256, 1, 4 * WideTile<1, 8, 256>::kFloats * 4},
      {"streamw<P,4,2,8,64>", convStreamW<4, 2, 8, 64>, 8, 64, 4, 4 * WideTile<4, 8, 64>::kFloats * 4},
      {"streamw<P,4,3,8,64>", convStreamW<4, 3, 8, 64>, 8, 64, 4, 5 * WideTile<4, 8, 64>::kFloats * 4}};
  for (const Wide& v : wides)
    for (int per : pers) {
      CHECK(cudaMemset(out, 0xff, cells * 4));
      const int rows = v.nt / v.px * v.rj, columns = 4 * v.px;
      const dim3 grid((nk + columns - 1) / columns, (nj + rows - 1) / rows, (ni + per - 1) / per);
      const Stream f = v.f;
      const int sh = v.shared, nt = v.nt;
      CHECK(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, sh));
      int resident = 0;
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, f, nt, sh));
      if (per == pers[0]) std::printf("%s: %d blocks an SM, %u blocks a plane\n", v.name, resident, grid.x * grid.y);
      const double ms = median([&] { f<<<grid, dim3(nt), sh>>>(A, w, ni, nj, nk, out, per); });
      CHECK(cudaMemcpy(got.data(), out, cells * 4, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(got.data(), want.data(), cells * 4) == 0;
      std::printf("%-21s<%2d> grid z %4u %.4f ms  %6.0f GB/s  %5.1f %% of copy  %s\n", v.name, per, grid.z, ms,
                  8.0 * cells / (ms * 1e6), 100.0 * copyMs / ms, same ? "same bits" : "DIFFERENT BITS");
    }
  for (const auto& [name, fn, blocks] : variants)
    for (int per : pers) {
      CHECK(cudaMemset(out, 0xff, cells * 4));
      const dim3 grid(blocks.x, blocks.y, (ni + per - 1) / per);
      const Variant f = fn;
      const double ms = median([&] { f<<<grid, block>>>(A, w, ni, nj, nk, out, per); });
      CHECK(cudaMemcpy(got.data(), out, cells * 4, cudaMemcpyDeviceToHost));
      const bool same = std::memcmp(got.data(), want.data(), cells * 4) == 0;
      std::printf("%-11s<%2d> grid z %4u %.4f ms  %6.0f GB/s  %5.1f %% of copy  %s\n", name, per, grid.z, ms,
                  8.0 * cells / (ms * 1e6), 100.0 * copyMs / ms, same ? "same bits" : "DIFFERENT BITS");
    }
  return 0;
}
