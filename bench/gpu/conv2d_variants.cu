// Where the 2-D convolution entry's time goes: KernelBench's conv2d (x 256 x 3 x 224 x 224, 96
// filters 11 x 11, stride 4, pad 2) through the entry as culift emits it (`Conv2D_conv64x128`, an
// implicit GEMM: per chunk of 16 terms the block gathers the input for its 128 positions and the
// filter for its 64 channels into shared memory, then each output adds the chunk's terms in source
// order under its padding flag) against hand-written forms of the same entry, each with the same
// bits:
//
// - sep<Q>: the gathers' addresses separated into a part of the position (or channel), computed
//           once per tile, and a part of the term, computed once per chunk: the input's index
//           ((n * C + c) * H + y) * W + xx is ((n * C) * H + oh * stride - pad) * W + ow * stride
//           - pad plus (c * H + r) * W + s, the filter's ((k * C + c) * R + r) * S + s is
//           k * C * R * S plus (c * R + r) * S + s; the padding test adds a term's r and s to the
//           position's oh * stride - pad and ow * stride - pad. No division per gathered element
//           (the entry divides nk by K for every input element and takes nk % K for every filter
//           element); Q terms per chunk.
// - pf:     sep<16> with the next chunk's gathers in registers while the block computes one.
// - wide<TK, MN>: pf with the flag skipping of the emitted entry, TK channels x 128 positions a block
//           (wide<128, 8>: every channel of the shape in one tile).
//
// On the GPU machine, `OUT=... scripts/gpu-harnesses.sh` builds and runs it;
// standalone, over the entries as culift emits them:
//
//   culift emit bench/gpu/conv_kernels.hpp -o .gpu/conv.cu -- -Iinclude   (development machine)
//   nvcc -O3 -arch=sm_90 -I.gpu -Ibench/gpu -o conv2d_variants bench/gpu/conv2d_variants.cu &&
//   ./conv2d_variants
//
// (default math, as the benchmark runs it: the products and sums contract to fused multiply-adds
// alike in every form.) Each line: the form, the median of 10 launches, TFLOP/s counting every
// product and sum of the terms, and whether every output has the emitted entry's bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "conv.cu"

#include "cuda_check.cuh"

namespace {

// Term q of (c, r, s) in source order: its r and s, and the offsets of its input and filter elements
// from those of a position's (a channel's) first term.
__device__ __forceinline__ void termAt(long long q, int H, int W, int R, int S, int& r, int& s, long long& dx,
                                       int& dw) {
  unsigned u = (unsigned)q;
  s = (int)(u % (unsigned)S);
  u /= (unsigned)S;
  r = (int)(u % (unsigned)R);
  const int c = (int)(u / (unsigned)R);
  dx = ((long long)c * H + r) * W + s;
  dw = (c * R + r) * S + s;
}

// The 128 positions of a tile from p0 on ((n, oh, ow) flattened): image (-1 beyond the launch),
// position in it, the window's corner and the input's index there.
__device__ __forceinline__ void positionTable(long long p0, long long allpos, long long plane, long long n2, int stride,
                                              int pad, int C, int H, int W, long long* pimg, long long* ppos, int* poy,
                                              int* pox, long long* pbase) {
  for (int e = threadIdx.x; e < 128; e += blockDim.x) {
    const long long p = p0 + e;
    const long long img = p < allpos ? p / plane : -1;
    const long long pos = img < 0 ? 0 : p - img * plane;
    const int oy = (int)(pos / n2) * stride - pad, ox = (int)(pos % n2) * stride - pad;
    pimg[e] = img;
    ppos[e] = pos;
    poy[e] = oy;
    pox[e] = ox;
    pbase[e] = ((img * C) * H + oy) * (long long)W + ox;
  }
}

template <int kQ> __global__ void __launch_bounds__(256)
    convSep(const float* __restrict__ x, const float* __restrict__ w, int C, int H, int W, int K, int R, int S,
            int stride, int pad, float* __restrict__ out, long long n0, long long n1, long long n2) {
  const long long plane = n1 * n2, kpi = K;
  const long long terms = (long long)C * R * S;
  const long long allpos = (n0 + kpi - 1) / kpi * plane;
  const long long tilesK = (kpi + 63) / 64, tilesP = (allpos + 127) / 128;
  __shared__ __align__(16) float sx[kQ][128];
  __shared__ __align__(16) float sw[kQ][64];
  __shared__ __align__(16) unsigned char sf[kQ][128];
  __shared__ int cr[kQ], cs[kQ], dw[kQ], sany[kQ];
  __shared__ long long dx[kQ];
  __shared__ long long pimg[128], ppos[128], pbase[128];
  __shared__ int poy[128], pox[128];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
#pragma unroll 1
  for (long long t = (long long)blockIdx.y * gridDim.x + blockIdx.x; t < tilesK * tilesP;
       t += (long long)gridDim.x * gridDim.y) {
    const long long k0 = t % tilesK * 64, p0 = t / tilesK * 128;
    __syncthreads();
    positionTable(p0, allpos, plane, n2, stride, pad, C, H, W, pimg, ppos, poy, pox, pbase);
    __syncthreads();
    float acc[8][4] = {};
#pragma unroll
    for (int m = 0; m < 8; ++m)
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        const long long k = k0 + ty * 8 + m, img = pimg[tx * 4 + n];
        if (img < 0 || k >= kpi || img * kpi + k >= n0) continue;
        acc[m][n] = culift_zero(0.0f);
      }
#pragma unroll 1
    for (long long q0 = 0; q0 < terms; q0 += kQ) {
      __syncthreads();
      if (threadIdx.x < kQ) {
        const long long q = q0 + threadIdx.x;
        if (q < terms) {
          termAt(q, H, W, R, S, cr[threadIdx.x], cs[threadIdx.x], dx[threadIdx.x], dw[threadIdx.x]);
        }
        sany[threadIdx.x] = 0;
      }
      __syncthreads();
#pragma unroll 1
      for (int e = threadIdx.x; e < kQ * 128; e += 256) {
        const int qq = e / 128, pp = e % 128;
        bool use = false;
        if (q0 + qq < terms && pimg[pp] >= 0 && pimg[pp] * kpi + k0 < n0) {
          const int y = poy[pp] + cr[qq], xx = pox[pp] + cs[qq];
          use = y >= 0 && y < H && xx >= 0 && xx < W;
          if (use) {
            sx[qq][pp] = x[pbase[pp] + dx[qq]];
            sany[qq] = 1;
          }
        }
        sf[qq][pp] = use;
      }
      __syncthreads();
#pragma unroll 1
      for (int e = threadIdx.x; e < kQ * 64; e += 256) {
        const int qq = e % kQ, kk = e / kQ;
        const long long nk = k0 + kk;
        if (sany[qq] && nk < kpi && nk < n0) sw[qq][kk] = w[nk * (C * R * S) + dw[qq]];
      }
      __syncthreads();
      auto step = [&](int qq) {
        float v0[4], v1[8];
        bool f[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v0[u] = sx[qq][tx * 4 + u];
#pragma unroll
        for (int u = 0; u < 8; ++u) v1[u] = sw[qq][ty * 8 + u];
#pragma unroll
        for (int u = 0; u < 4; ++u) f[u] = sf[qq][tx * 4 + u] != 0;
#pragma unroll
        for (int m = 0; m < 8; ++m)
#pragma unroll
          for (int n = 0; n < 4; ++n)
            if (f[n]) acc[m][n] += v0[n] * v1[m];
      };
      const int nq = (int)(terms - q0 < kQ ? terms - q0 : kQ);
      if (nq == kQ) {
#pragma unroll
        for (int qq = 0; qq < kQ; ++qq) step(qq);
      } else {
#pragma unroll 1
        for (int qq = 0; qq < nq; ++qq) step(qq);
      }
    }
#pragma unroll
    for (int m = 0; m < 8; ++m)
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        const long long k = k0 + ty * 8 + m, img = pimg[tx * 4 + n];
        if (img < 0 || k >= kpi || img * kpi + k >= n0) continue;
        out[(img * kpi + k) * plane + ppos[tx * 4 + n]] = acc[m][n];
      }
  }
}

// pf: sep<16> with the next chunk's gathers in flight while the block computes the current one:
// each thread loads its 8 input elements (one position, terms h, h + 2, ...) and 4 filter
// elements of the next chunk into registers before the chunk's products, and stores them into
// shared memory after them (the counters' table double-buffered). The filter is read for every
// term of the chunk, not only those some position runs (every element is in the array here).
__global__ void __launch_bounds__(256, 2)
    convPf(const float* __restrict__ x, const float* __restrict__ w, int C, int H, int W, int K, int R, int S,
           int stride, int pad, float* __restrict__ out, long long n0, long long n1, long long n2) {
  constexpr int kQ = 16;
  const long long plane = n1 * n2, kpi = K;
  const long long terms = (long long)C * R * S;
  const long long allpos = (n0 + kpi - 1) / kpi * plane;
  const long long tilesK = (kpi + 63) / 64, tilesP = (allpos + 127) / 128;
  __shared__ __align__(16) float sx[kQ][128];
  __shared__ __align__(16) float sw[kQ][64];
  __shared__ __align__(16) unsigned char sf[kQ][128];
  __shared__ int cr[2][kQ], cs[2][kQ], dw[2][kQ];
  __shared__ long long dx[2][kQ];
  __shared__ long long pimg[128], ppos[128], pbase[128];
  __shared__ int poy[128], pox[128];
  const int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  const int gp = threadIdx.x % 128, gh = threadIdx.x / 128;  // this thread's gathered position, first term
  const int wq = threadIdx.x % kQ, wk = threadIdx.x / kQ;    // its filter elements: term wq, channels wk + 16u
  auto table = [&](int buf, long long q0) {
    if (threadIdx.x < kQ) {
      const long long q = q0 + threadIdx.x;
      if (q < terms) {
        termAt(q, H, W, R, S, cr[buf][threadIdx.x], cs[buf][threadIdx.x], dx[buf][threadIdx.x], dw[buf][threadIdx.x]);
      }
    }
  };
#pragma unroll 1
  for (long long t = (long long)blockIdx.y * gridDim.x + blockIdx.x; t < tilesK * tilesP;
       t += (long long)gridDim.x * gridDim.y) {
    const long long k0 = t % tilesK * 64, p0 = t / tilesK * 128;
    __syncthreads();
    positionTable(p0, allpos, plane, n2, stride, pad, C, H, W, pimg, ppos, poy, pox, pbase);
    table(0, 0);
    __syncthreads();
    const bool posIn = pimg[gp] >= 0 && pimg[gp] * kpi + k0 < n0;
    float rx[8], rw[4];
    bool rf[8];
    // The chunk at q0 (its counters in table buf) into registers.
    auto gather = [&](int buf, long long q0) {
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        const int qq = gh + 2 * u;
        bool use = false;
        if (q0 + qq < terms && posIn) {
          const int y = poy[gp] + cr[buf][qq], xx = pox[gp] + cs[buf][qq];
          use = y >= 0 && y < H && xx >= 0 && xx < W;
          if (use) rx[u] = x[pbase[gp] + dx[buf][qq]];
        }
        rf[u] = use;
      }
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const long long nk = k0 + wk + 16 * u;
        if (q0 + wq < terms && nk < kpi && nk < n0) rw[u] = w[nk * (C * R * S) + dw[buf][wq]];
      }
    };
    auto stage = [&]() {
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        if (rf[u]) sx[gh + 2 * u][gp] = rx[u];
        sf[gh + 2 * u][gp] = rf[u];
      }
#pragma unroll
      for (int u = 0; u < 4; ++u) sw[wq][wk + 16 * u] = rw[u];
    };
    float acc[8][4] = {};
#pragma unroll
    for (int m = 0; m < 8; ++m)
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        const long long k = k0 + ty * 8 + m, img = pimg[tx * 4 + n];
        if (img < 0 || k >= kpi || img * kpi + k >= n0) continue;
        acc[m][n] = culift_zero(0.0f);
      }
    gather(0, 0);
    stage();
    table(1, kQ);
    __syncthreads();
    int cur = 0;
#pragma unroll 1
    for (long long q0 = 0; q0 < terms; q0 += kQ) {
      const bool more = q0 + kQ < terms;
      if (more) gather(cur ^ 1, q0 + kQ);
      auto step = [&](int qq) {
        float v0[4], v1[8];
        bool f[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v0[u] = sx[qq][tx * 4 + u];
#pragma unroll
        for (int u = 0; u < 8; ++u) v1[u] = sw[qq][ty * 8 + u];
#pragma unroll
        for (int u = 0; u < 4; ++u) f[u] = sf[qq][tx * 4 + u] != 0;
#pragma unroll
        for (int m = 0; m < 8; ++m)
#pragma unroll
          for (int n = 0; n < 4; ++n)
            if (f[n]) acc[m][n] += v0[n] * v1[m];
      };
      const int nq = (int)(terms - q0 < kQ ? terms - q0 : kQ);
      if (nq == kQ) {
#pragma unroll
        for (int qq = 0; qq < kQ; ++qq) step(qq);
      } else {
#pragma unroll 1
        for (int qq = 0; qq < nq; ++qq) step(qq);
      }
      __syncthreads();  // every thread is done with the stages and with table cur
      if (more) {
        stage();
        table(cur, q0 + 2 * kQ);
      }
      cur ^= 1;
      __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < 8; ++m)
#pragma unroll
      for (int n = 0; n < 4; ++n) {
        const long long k = k0 + ty * 8 + m, img = pimg[tx * 4 + n];
        if (img < 0 || k >= kpi || img * kpi + k >= n0) continue;
        out[(img * kpi + k) * plane + ppos[tx * 4 + n]] = acc[m][n];
      }
  }
}

// wide<TK, MN>: pf with the emitted entry's flag skipping (a term every stored position of the
// block runs reads no flag: culift_all) and a tile of TK channels x 128 positions, MN positions x 8
// channels per thread (the positions (u / 4) * 64 + tx * 4 + u % 4, as the tiled GEMM's; a warp's
// 16 channels consecutive, so that a warp whose channels all lie beyond the image's only gathers).
// wide<64, 4> is the emitted entry's shape (two blocks a multiprocessor); wide<128, 8> (one, its 64
// sums a thread need more than 128 registers) takes all 96 channels of KernelBench's
// shape in one tile: the input gathered once per position and chunk instead of twice, and 64
// products per thread and term against 12 shared loads.
//
// Two switches take the emitted entry's remaining differences one at a time: Q, a warp of 4 x 8
// threads (8 of positions, 4 of channels; MN = 4, TK = 64 only) instead of a row of 32; ANY, the
// filter read only for the terms some position of the block runs (the entry's `culift_any`: marks
// the position gather sets, and a barrier before the filter's loads).
template <int TK, int MN, bool Q = false, bool ANY = false> __global__ void __launch_bounds__(256, TK <= 64 ? 2 : 1)
    convWide(const float* __restrict__ x, const float* __restrict__ w, int C, int H, int W, int K, int R, int S,
             int stride, int pad, float* __restrict__ out, long long n0, long long n1, long long n2) {
  constexpr int kQ = 16, kP = 128, kTx = kP / MN, kPad = TK + 4;
  static_assert((TK / 8) * kTx == 256, "256 threads of 8 channels x MN positions");
  const long long plane = n1 * n2, kpi = K;
  const long long terms = (long long)C * R * S;
  const long long allpos = (n0 + kpi - 1) / kpi * plane;
  const long long tilesK = (kpi + TK - 1) / TK, tilesP = (allpos + kP - 1) / kP;
  __shared__ __align__(16) float sx[kQ][kP];
  __shared__ __align__(16) float sw[kQ][kPad];
  __shared__ __align__(16) unsigned char sf[kQ][kP];
  __shared__ int cr[2][kQ], cs[2][kQ], dw[2][kQ], sall[2][kQ], sany[2][kQ];
  __shared__ long long dx[2][kQ];
  __shared__ long long pimg[kP], ppos[kP], pbase[kP];
  __shared__ int poy[kP], pox[kP];
  static_assert(!Q || (MN == 4 && TK == 64), "the 4 x 8 warp: 32 x 8 threads");
  const int tx = Q ? (int)(threadIdx.x / 32 % 4 * 8 + threadIdx.x % 8) : (int)(threadIdx.x % kTx);
  const int ty = Q ? (int)(threadIdx.x / 32 / 4 * 4 + threadIdx.x % 32 / 8) : (int)(threadIdx.x / kTx);
  const int gp = threadIdx.x % kP, gh = threadIdx.x / kP;  // this thread's gathered position, first term
  const int wq = threadIdx.x % kQ, wk = threadIdx.x / kQ;  // its filter elements: term wq, channels wk + 16u
  auto col = [&](int n) { return (n / 4) * 64 + tx * 4 + n % 4; };
  auto table = [&](int buf, long long q0) {
    if (threadIdx.x < kQ) {
      const long long q = q0 + threadIdx.x;
      if (q < terms) {
        termAt(q, H, W, R, S, cr[buf][threadIdx.x], cs[buf][threadIdx.x], dx[buf][threadIdx.x], dw[buf][threadIdx.x]);
      }
      sall[buf][threadIdx.x] = 1;
      sany[buf][threadIdx.x] = 0;
    }
  };
#pragma unroll 1
  for (long long t = (long long)blockIdx.y * gridDim.x + blockIdx.x; t < tilesK * tilesP;
       t += (long long)gridDim.x * gridDim.y) {
    const long long k0 = t % tilesK * TK, p0 = t / tilesK * kP;
    __syncthreads();
    positionTable(p0, allpos, plane, n2, stride, pad, C, H, W, pimg, ppos, poy, pox, pbase);
    table(0, 0);
    __syncthreads();
    const bool posIn = pimg[gp] >= 0 && pimg[gp] * kpi + k0 < n0;
    constexpr int kGx = kQ * kP / 256, kGw = kQ * TK / 256;
    float rx[kGx], rw[kGw];
    bool rf[kGx];
    auto gatherW = [&](int buf, long long q0) {
#pragma unroll
      for (int u = 0; u < kGw; ++u) {
        const long long nk = k0 + wk + 16 * u;
        if (q0 + wq < terms && nk < kpi && nk < n0 && (!ANY || sany[buf][wq]))
          rw[u] = w[nk * (C * R * S) + dw[buf][wq]];
      }
    };
    auto gather = [&](int buf, long long q0) {
#pragma unroll
      for (int u = 0; u < kGx; ++u) {
        const int qq = gh + (256 / kP) * u;
        bool use = false;
        if (q0 + qq < terms && posIn) {
          const int y = poy[gp] + cr[buf][qq], xx = pox[gp] + cs[buf][qq];
          use = y >= 0 && y < H && xx >= 0 && xx < W;
          if (use) {
            rx[u] = x[pbase[gp] + dx[buf][qq]];
            if (ANY) sany[buf][qq] = 1;
          } else {
            sall[buf][qq] = 0;
          }
        }
        rf[u] = use;
      }
      if (!ANY) gatherW(buf, q0);
    };
    auto stage = [&]() {
#pragma unroll
      for (int u = 0; u < kGx; ++u) {
        sx[gh + (256 / kP) * u][gp] = rf[u] ? rx[u] : 0.0f;
        sf[gh + (256 / kP) * u][gp] = rf[u];
      }
#pragma unroll
      for (int u = 0; u < kGw; ++u) sw[wq][wk + 16 * u] = rw[u];
    };
    float acc[8][MN] = {};
#pragma unroll
    for (int m = 0; m < 8; ++m)
#pragma unroll
      for (int n = 0; n < MN; ++n) {
        const long long k = k0 + ty * 8 + m, img = pimg[col(n)];
        if (img < 0 || k >= kpi || img * kpi + k >= n0) continue;
        acc[m][n] = culift_zero(0.0f);
      }
    gather(0, 0);
    if (ANY) {
      __syncthreads();
      gatherW(0, 0);
    }
    stage();
    table(1, kQ);
    __syncthreads();
    int cur = 0;
    const bool rowsIn = k0 + ty * 8 < kpi;
#pragma unroll 1
    for (long long q0 = 0; q0 < terms; q0 += kQ) {
      const bool more = q0 + kQ < terms;
      if (more) gather(cur ^ 1, q0 + kQ);
      if (ANY) {
        __syncthreads();
        if (more) gatherW(cur ^ 1, q0 + kQ);
      }
      auto step = [&](int qq, bool every) {
        float v0[MN], v1[8];
#pragma unroll
        for (int u = 0; u < MN; ++u) v0[u] = sx[qq][col(u)];
#pragma unroll
        for (int u = 0; u < 8; ++u) v1[u] = sw[qq][ty * 8 + u];
        if (every) {
#pragma unroll
          for (int m = 0; m < 8; ++m)
#pragma unroll
            for (int n = 0; n < MN; ++n) acc[m][n] += v0[n] * v1[m];
        } else {
          bool f[MN];
#pragma unroll
          for (int u = 0; u < MN; ++u) f[u] = sf[qq][col(u)] != 0;
#pragma unroll
          for (int m = 0; m < 8; ++m)
#pragma unroll
            for (int n = 0; n < MN; ++n)
              if (f[n]) acc[m][n] += v0[n] * v1[m];
        }
      };
      const int nq = (int)(terms - q0 < kQ ? terms - q0 : kQ);
      if (rowsIn) {
        if (nq == kQ) {
#pragma unroll
          for (int qq = 0; qq < kQ; ++qq) {
            if (sall[cur][qq]) step(qq, true);
            else step(qq, false);
          }
        } else {
#pragma unroll 1
          for (int qq = 0; qq < nq; ++qq) step(qq, false);
        }
      }
      __syncthreads();  // every thread is done with the stages and with table cur
      if (more) {
        stage();
        table(cur, q0 + 2 * kQ);
      }
      cur ^= 1;
      __syncthreads();
    }
#pragma unroll
    for (int m = 0; m < 8; ++m)
#pragma unroll
      for (int n = 0; n < MN; ++n) {
        const long long k = k0 + ty * 8 + m, img = pimg[col(n)];
        if (img < 0 || k >= kpi || img * kpi + k >= n0) continue;
        out[(img * kpi + k) * plane + ppos[col(n)]] = acc[m][n];
      }
  }
}


// zero<TK>: an implicit GEMM whose chunks multiply with no flag: a position's element of a term
// its padding test skips is staged as 0, which adds +0 or -0 to a sum that is never -0 (it starts
// at +0 and round-to-nearest gives +0 for every exact zero) and so leaves its bits, as long as the
// filter's element is finite. A chunk whose staged filter holds an infinity or a NaN (the block
// learns it at the barrier that ends the staging, `__syncthreads_or`) runs under the flags. TK
// channels (64: 4 a thread; 96: 6; 128: 8) x 128 positions (8 a thread) a block of 256 threads.
template <int TK> __global__ void __launch_bounds__(256, 2)
    convZero(const float* __restrict__ x, const float* __restrict__ w, int C, int H, int W, int K, int R, int S,
             int stride, int pad, float* __restrict__ out, long long n0, long long n1, long long n2) {
  constexpr int kQ = 16, kP = 128, kCT = TK / 16, kLo = kCT < 4 ? kCT : 4, kHi = kCT - kLo, kPad = TK + 4;
  const long long plane = n1 * n2, kpi = K;
  const int terms = C * R * S;
  const long long allpos = (n0 + kpi - 1) / kpi * plane;
  const long long tilesK = (kpi + TK - 1) / TK, tilesP = (allpos + kP - 1) / kP;
  __shared__ __align__(16) float sx[2][kQ][kP];
  __shared__ __align__(16) float sw[2][kQ][kPad];
  __shared__ __align__(16) unsigned char sf[2][kQ][kP];
  __shared__ int2 tab[3][kQ];  // a term's input offset, and r << 16 | s
  __shared__ long long pimg[kP], ppos[kP];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int tx = lane % 8 + 8 * (warp % 2), ty = lane / 8 + 4 * (warp / 2);  // 16 x 16
  const int gp = threadIdx.x % kP, gh = threadIdx.x / kP;
  const int wq = threadIdx.x % kQ, wk = threadIdx.x / kQ;
  auto fill = [&](int buf, int q0) {
    if (threadIdx.x < kQ) {
      const int q = q0 + threadIdx.x;
      int2 e = make_int2(0, 0);
      if (q < terms) {
        const int s = q % S, r = q / S % R, c = q / S / R;
        e = make_int2((c * H + r) * W + s, r << 16 | s);
      }
      tab[buf][threadIdx.x] = e;
    }
  };
  auto pcol = [&](int n) { return n < 4 ? tx * 4 + n : 64 + tx * 4 + (n - 4); };
  auto kcol = [&](int m) { return m < kLo ? ty * kLo + m : 16 * kLo + ty * kHi + (m - kLo); };
#pragma unroll 1
  for (long long t = blockIdx.x; t < tilesK * tilesP; t += gridDim.x) {
    const long long k0 = t % tilesK * TK, p0 = t / tilesK * kP;
    __syncthreads();
    if (threadIdx.x < kP) {
      const long long p = p0 + threadIdx.x;
      const long long img = p < allpos ? p / plane : -1;
      pimg[threadIdx.x] = img;
      ppos[threadIdx.x] = img < 0 ? 0 : p - img * plane;
    }
    fill(0, 0);
    fill(1, kQ);
    __syncthreads();
    // this thread's gathered position
    const long long gimg = pimg[gp], gpos = ppos[gp];
    const bool gin = gimg >= 0 && gimg * kpi + k0 < n0;
    const int oy = (int)(gpos / n2) * stride - pad, ox = (int)(gpos % n2) * stride - pad;
    const float* gx = x + ((gimg * C) * H + oy) * (long long)W + ox;
    const float* gw[kCT];
#pragma unroll
    for (int u = 0; u < kCT; ++u) {
      const long long nk = k0 + wk + 16 * u;
      gw[u] = nk < kpi && nk < n0 ? w + nk * terms : nullptr;
    }
    float rx[8], rw[kCT];
    unsigned rf = 0;
    bool bad = false;
    auto gather = [&](int buf, int q0) {
      rf = 0;
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        const int qq = gh + 2 * u;
        const int2 e = tab[buf][qq];
        const int y = oy + (e.y >> 16), xx = ox + (e.y & 0xffff);
        const bool use = gin && q0 + qq < terms && (unsigned)y < (unsigned)H && (unsigned)xx < (unsigned)W;
        rx[u] = use ? gx[e.x] : 0.0f;
        rf |= (unsigned)use << u;
      }
      bad = false;
#pragma unroll
      for (int u = 0; u < kCT; ++u) {
        rw[u] = gw[u] != nullptr && q0 + wq < terms ? gw[u][q0 + wq] : 0.0f;
        bad |= !(fabsf(rw[u]) <= 3.402823466e38f);
      }
    };
    auto stage = [&](int buf) {
#pragma unroll
      for (int u = 0; u < 8; ++u) {
        sx[buf][gh + 2 * u][gp] = rx[u];
        sf[buf][gh + 2 * u][gp] = (unsigned char)(rf >> u & 1);
      }
#pragma unroll
      for (int u = 0; u < kCT; ++u) sw[buf][wq][wk + 16 * u] = rw[u];
    };
    float acc[kCT][8];
#pragma unroll
    for (int m = 0; m < kCT; ++m)
#pragma unroll
      for (int n = 0; n < 8; ++n) acc[m][n] = culift_zero(0.0f);
    gather(0, 0);
    stage(0);
    int flagged = __syncthreads_or(bad);
    int cur = 0;
#pragma unroll 1
    for (int q0 = 0; q0 < terms; q0 += kQ) {
      const bool more = q0 + kQ < terms;
      if (more) gather((q0 / kQ + 1) % 3, q0 + kQ);
      if (!flagged) {
#pragma unroll
        for (int qq = 0; qq < kQ; ++qq) {
          const float4 a = *reinterpret_cast<const float4*>(&sx[cur][qq][tx * 4]);
          const float4 b = *reinterpret_cast<const float4*>(&sx[cur][qq][64 + tx * 4]);
          const float v0[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
          float v1[kCT];
          if constexpr (kLo == 4) {
            const float4 c = *reinterpret_cast<const float4*>(&sw[cur][qq][ty * 4]);
            v1[0] = c.x, v1[1] = c.y, v1[2] = c.z, v1[3] = c.w;
          }
          if constexpr (kHi == 2) {
            const float2 d = *reinterpret_cast<const float2*>(&sw[cur][qq][64 + ty * 2]);
            v1[4] = d.x, v1[5] = d.y;
          }
          if constexpr (kHi == 4) {
            const float4 d = *reinterpret_cast<const float4*>(&sw[cur][qq][64 + ty * 4]);
            v1[4] = d.x, v1[5] = d.y, v1[6] = d.z, v1[7] = d.w;
          }
#pragma unroll
          for (int m = 0; m < kCT; ++m)
#pragma unroll
            for (int n = 0; n < 8; ++n) acc[m][n] += v0[n] * v1[m];
        }
      } else {
#pragma unroll 1
        for (int qq = 0; qq < kQ && q0 + qq < terms; ++qq) {
#pragma unroll
          for (int m = 0; m < kCT; ++m)
#pragma unroll
            for (int n = 0; n < 8; ++n)
              if (sf[cur][qq][pcol(n)]) acc[m][n] += sx[cur][qq][pcol(n)] * sw[cur][qq][kcol(m)];
        }
      }
      if (more) {
        stage(cur ^ 1);
        fill((q0 / kQ + 2) % 3, q0 + 2 * kQ);  // a table two chunks on: the one gathered just now stays
      }
      flagged = __syncthreads_or(bad);
      cur ^= 1;
    }
#pragma unroll
    for (int m = 0; m < kCT; ++m)
#pragma unroll
      for (int n = 0; n < 8; ++n) {
        const long long k = k0 + kcol(m), img = pimg[pcol(n)];
        if (img < 0 || k >= kpi || img * kpi + k >= n0) continue;
        out[(img * kpi + k) * plane + ppos[pcol(n)]] = acc[m][n];
      }
  }
}

}  // namespace

int main() {
  const int N = 256, C = 3, H = 224, W = 224, K = 96, R = 11, S = 11, stride = 4, pad = 2;
  const int OH = (H + 2 * pad - R) / stride + 1, OW = (W + 2 * pad - S) / stride + 1;
  const long long nx = (long long)N * C * H * W, nw = (long long)K * C * R * S, no = (long long)N * K * OH * OW;
  std::vector<float> hx(nx), hw(nw);
  fillUniform(hw, fillUniform(hx, 2718281u));
  for (auto& v : hw) v *= 0.1f;
  float *x, *w, *out, *ref;
  CHECK(cudaMalloc(&x, nx * 4));
  CHECK(cudaMalloc(&w, nw * 4));
  CHECK(cudaMalloc(&out, no * 4));
  CHECK(cudaMalloc(&ref, no * 4));
  CHECK(cudaMemcpy(x, hx.data(), nx * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw.data(), nw * 4, cudaMemcpyHostToDevice));
  auto median = [](auto&& launch) { return medianMs(launch, 10); };
  const double flops = 2.0 * no * C * R * S;
  const dim3 grid(24, 384), block(256);  // as the runtime launches the entry on the H200
  const long long n0 = (long long)N * K;
  const double entryMs = median(
      [&] { Conv2D_conv64x128<<<grid, block>>>(x, w, C, H, W, K, R, S, stride, pad, ref, n0, OH, OW, 0); });
  CHECK(cudaGetLastError());
  std::printf("Conv2D_conv64x128   %.4f ms  %5.2f TFLOP/s\n", entryMs, flops / (entryMs * 1e9));
  std::vector<float> got(no), want(no);
  CHECK(cudaMemcpy(want.data(), ref, no * 4, cudaMemcpyDeviceToHost));
  using Variant = void (*)(const float*, const float*, int, int, int, int, int, int, int, int, float*, long long,
                           long long, long long);
  const std::pair<const char*, Variant> variants[] = {{"sep<16>", convSep<16>},
                                                      {"sep<32>", convSep<32>},
                                                      {"pf", convPf},
                                                      {"wide<64,4>", convWide<64, 4>},
                                                      {"wide<128,8>", convWide<128, 8>},
                                                      {"wide<64,4,q>", convWide<64, 4, true>},
                                                      {"wide<64,4,any>", convWide<64, 4, false, true>},
                                                      {"wide<64,4,q,any>", convWide<64, 4, true, true>}};
  const std::pair<const char*, Variant> zeros[] = {{"zero<64>", convZero<64>},
                                                   {"zero<96>", convZero<96>},
                                                   {"zero<128>", convZero<128>}};
  for (const auto& [name, fn] : zeros) {
    CHECK(cudaMemset(out, 0xff, no * 4));
    const Variant f = fn;
    const int tk = name[5] == '6' ? 64 : name[5] == '9' ? 96 : 128;
    const long long tiles = (K + tk - 1) / tk * (((long long)N * OH * OW + 127) / 128);
    const double ms = median(
        [&] { f<<<(unsigned)tiles, 256>>>(x, w, C, H, W, K, R, S, stride, pad, out, n0, OH, OW); });
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), out, no * 4, cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(got.data(), want.data(), no * 4) == 0;
    std::printf("%-18s  %.4f ms  %5.2f TFLOP/s  %s\n", name, ms, flops / (ms * 1e9),
                same ? "same bits" : "DIFFERENT BITS");
  }
  for (const auto& [name, fn] : variants) {
    CHECK(cudaMemset(out, 0xff, no * 4));
    const Variant f = fn;
    const double ms = median([&] { f<<<grid, block>>>(x, w, C, H, W, K, R, S, stride, pad, out, n0, OH, OW); });
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), out, no * 4, cudaMemcpyDeviceToHost));
    const bool same = std::memcmp(got.data(), want.data(), no * 4) == 0;
    std::printf("%-18s  %.4f ms  %5.2f TFLOP/s  %s\n", name, ms, flops / (ms * 1e9),
                same ? "same bits" : "DIFFERENT BITS");
  }
  return 0;
}
