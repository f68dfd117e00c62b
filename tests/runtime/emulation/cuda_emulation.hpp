// CUDA C on the host, for tests of emitted entries where no GPU is: the blocks of a launch run one
// after the other, each block's threads as std::threads that meet at __syncthreads (a
// std::barrier), and a kernel's __shared__ arrays are static locals (one block at a time uses
// them). The entries' arithmetic is the host's: with -ffp-contract=off, as the GPU's strict math
// (--fmad=false) rounds every product before its sum. Warp shuffles and cp.async are not here.
#pragma once

#include <atomic>
#include <barrier>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "emulated_launch.hpp"

#define __device__
#define __global__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __restrict__ __restrict

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

#include "host_prelude.hpp"
