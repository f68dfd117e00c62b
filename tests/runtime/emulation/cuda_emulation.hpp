// CUDA C on the host, for tests of emitted entries where no GPU is: the blocks of a launch run one
// after the other, each block's threads as std::threads that meet at __syncthreads (a
// std::barrier), and a kernel's __shared__ arrays are static locals (one block at a time uses
// them). The entries' arithmetic is the host's: with -ffp-contract=off, as the GPU's strict math
// (--fmad=false) rounds every product before its sum. Dynamic shared memory is a static buffer of
// 256 KiB (host_source.cmake rewrites its declaration); a warp's shuffles and votes exchange
// through a table at the warp's barrier; cp.async copies at once (host_prelude.hpp).
#pragma once

#include <atomic>
#include <barrier>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "emulated_launch.hpp"

// The entries on warpgroups take their wgmma body (host_prelude.hpp emulates it).
#define __CUDA_ARCH_FEAT_SM90_ALL 1
#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __restrict__ __restrict
#define __grid_constant__

// The 16-byte vectors the entries load rows through and store outputs by (aligned as CUDA aligns them).
struct alignas(16) float4 {
  float x, y, z, w;
};
struct alignas(16) int4 {
  int x, y, z, w;
};
struct alignas(16) uint4 {
  unsigned int x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline int4 make_int4(int x, int y, int z, int w) { return {x, y, z, w}; }
inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w) { return {x, y, z, w}; }

// A shared address's bits: the host address (the entries on warpgroups align their stages by it).
inline std::size_t __cvta_generic_to_shared(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline void __syncthreads() { culift_emulation::barrier->arrive_and_wait(); }
// Whether `p` holds for every thread of the block (each thread passes it once).
inline int __syncthreads_and(int p) {
  if (!p) culift_emulation::falses.fetch_add(1);
  culift_emulation::barrier->arrive_and_wait();
  const int all = culift_emulation::falses.load() == 0;
  culift_emulation::barrier->arrive_and_wait();
  if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0) culift_emulation::falses.store(0);
  culift_emulation::barrier->arrive_and_wait();
  return all;
}
// Whether `p` holds for some thread of the block.
inline int __syncthreads_or(int p) { return !__syncthreads_and(!p); }

using std::isfinite;
using std::isinf;
using std::isnan;
using std::signbit;
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a < b ? b : a; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a < b ? b : a; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a < b ? b : a; }

// Bits as another type, fences, atomics (std::atomic_ref), cache-hinted loads.
inline float __int_as_float(int v) { return std::bit_cast<float>(v); }
inline int __float_as_int(float v) { return std::bit_cast<int>(v); }
inline float __uint_as_float(unsigned v) { return std::bit_cast<float>(v); }
inline unsigned __float_as_uint(float v) { return std::bit_cast<unsigned>(v); }
inline double __longlong_as_double(long long v) { return std::bit_cast<double>(v); }
inline long long __double_as_longlong(double v) { return std::bit_cast<long long>(v); }
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
template <typename T> inline T __ldcg(const T* p) { return *p; }
template <typename T> inline T __ldg(const T* p) { return *p; }
template <typename T, typename V> inline T atomicAdd(T* p, V v) { return std::atomic_ref<T>(*p).fetch_add(T(v)); }
template <typename T, typename V> inline T atomicSub(T* p, V v) { return std::atomic_ref<T>(*p).fetch_sub(T(v)); }
template <typename T, typename V> inline T atomicExch(T* p, V v) { return std::atomic_ref<T>(*p).exchange(T(v)); }
template <typename T, typename V> inline T atomicOr(T* p, V v) { return std::atomic_ref<T>(*p).fetch_or(T(v)); }
template <typename T, typename V> inline T atomicAnd(T* p, V v) { return std::atomic_ref<T>(*p).fetch_and(T(v)); }
template <typename T, typename V> inline T atomicMax(T* p, V v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (old < T(v) && !a.compare_exchange_weak(old, T(v))) {
  }
  return old;
}
template <typename T, typename V> inline T atomicMin(T* p, V v) {
  std::atomic_ref<T> a(*p);
  T old = a.load();
  while (T(v) < old && !a.compare_exchange_weak(old, T(v))) {
  }
  return old;
}
template <typename T> inline T atomicCAS(T* p, T expected, T desired) {
  std::atomic_ref<T>(*p).compare_exchange_strong(expected, desired);
  return expected;
}

// Warp shuffles and votes: each lane writes its value to the warp's table, the warp meets, each
// lane reads its source lane's, and the warp meets again before the table is written anew. A
// source lane outside the warp or no longer running gives the lane its own value. The masks are
// taken as full: every lane of the warp that still runs takes part, as in the emitted entries.
namespace culift_emulation {
template <typename T> T shuffle(T v, int source) {
  static_assert(sizeof(T) <= sizeof(unsigned) * 8);
  Warp& w = warp();
  const unsigned lane = linearThread % 32;
  std::memcpy(w.registers[lane].data(), &v, sizeof(T));
  w.barrier->arrive_and_wait();
  T r = v;
  if (source >= 0 && source < 32 && w.active[static_cast<unsigned>(source)])
    std::memcpy(&r, w.registers[static_cast<unsigned>(source)].data(), sizeof(T));
  w.barrier->arrive_and_wait();
  return r;
}
inline unsigned lane() { return linearThread % 32; }
}  // namespace culift_emulation

template <typename T> T __shfl_xor_sync(unsigned, T v, int laneMask, int width = 32) {
  const int l = static_cast<int>(culift_emulation::lane());
  return culift_emulation::shuffle(v, (l & ~(width - 1)) | ((l ^ laneMask) & (width - 1)));
}
template <typename T> T __shfl_down_sync(unsigned, T v, unsigned delta, int width = 32) {
  const int l = static_cast<int>(culift_emulation::lane()), in = l % width + static_cast<int>(delta);
  return culift_emulation::shuffle(v, in < width ? l + static_cast<int>(delta) : l);
}
template <typename T> T __shfl_up_sync(unsigned, T v, unsigned delta, int width = 32) {
  const int l = static_cast<int>(culift_emulation::lane()), in = l % width - static_cast<int>(delta);
  return culift_emulation::shuffle(v, in >= 0 ? l - static_cast<int>(delta) : l);
}
template <typename T> T __shfl_sync(unsigned, T v, int source, int width = 32) {
  const int l = static_cast<int>(culift_emulation::lane());
  return culift_emulation::shuffle(v, (l & ~(width - 1)) + source % width);
}
inline unsigned __ballot_sync(unsigned, int predicate) {
  culift_emulation::Warp& w = culift_emulation::warp();
  const unsigned lane = culift_emulation::lane();
  w.registers[lane][0] = predicate != 0;
  w.barrier->arrive_and_wait();
  unsigned bits = 0;
  for (unsigned l = 0; l < 32; ++l)
    if (w.active[l] && w.registers[l][0]) bits |= 1u << l;
  w.barrier->arrive_and_wait();
  return bits;
}
inline void __syncwarp(unsigned = 0xffffffffu) { culift_emulation::warp().barrier->arrive_and_wait(); }

#include "host_prelude.hpp"
