// The device preludes of emitted CUDA C (translator/src/codegen/prelude/), for the host: the same
// names and values, without inline PTX. culift_hide and culift_opaque hide nothing from the host
// compiler (they keep the device compilers from rules that do not hold; the host's hold).
#pragma once
#include <cstdint>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "tensor_map.hpp"

template <typename T> inline T culift_min(T a, T b) { return (b < a) ? b : a; }
template <typename T> inline T culift_max(T a, T b) { return (a < b) ? b : a; }
template <typename T> inline T culift_clamp(T v, T lo, T hi) { return (v < lo) ? lo : (hi < v) ? hi : v; }
inline int culift_abs(int v) { return std::abs(v); }
inline long long culift_abs(long long v) { return std::llabs(v); }
inline float culift_fabsf(float v) {
  unsigned bits;
  std::memcpy(&bits, &v, 4);
  bits &= 0x7fffffffu;
  std::memcpy(&v, &bits, 4);
  return v;
}
inline float culift_abs(float v) { return culift_fabsf(v); }
inline double culift_abs(double v) { return std::fabs(v); }
template <typename T> inline T culift_opaque(T v) { return v; }
inline float culift_zero(float z) { return z; }
inline double culift_zero(double z) { return z; }
inline float culift_neg(float v) { return -v; }
inline double culift_neg(double v) { return -v; }
inline const unsigned culift_ones32 = 0xffffffffu;
inline const unsigned long long culift_ones64 = 0xffffffffffffffffull;
template <typename T> inline T culift_hide(T v) { return v; }
template <typename T, typename S> inline T culift_narrow(S v) { return (T)v; }
inline int culift_widen(signed char v) { return v; }
inline int culift_widen(short v) { return v; }
inline unsigned culift_widen(unsigned char v) { return v; }
inline unsigned culift_widen(unsigned short v) { return v; }
template <typename T, typename W> inline T culift_min32(T a, T b) { return culift_min(a, b); }
template <typename T, typename W> inline T culift_max32(T a, T b) { return culift_max(a, b); }
template <typename T, typename W> inline T culift_clamp32(T v, T lo, T hi) { return culift_clamp(v, lo, hi); }
template <typename T> inline T& culift_pre_inc(T& x) { return x = culift_narrow<T>(x + 1); }
template <typename T> inline T& culift_pre_dec(T& x) { return x = culift_narrow<T>(x - 1); }
template <typename T> inline T culift_post_inc(T& x) {
  const T old = x;
  x = culift_narrow<T>(x + 1);
  return old;
}
template <typename T> inline T culift_post_dec(T& x) {
  const T old = x;
  x = culift_narrow<T>(x - 1);
  return old;
}
template <typename T, int N> struct alignas(sizeof(T) * N) culift_vec {
  T v[N];
};
template <typename T> inline T culift_atomic_add(T* p, T v) { return std::atomic_ref<T>(*p).fetch_add(v); }
template <typename T> inline T culift_atomic_sub(T* p, T v) { return std::atomic_ref<T>(*p).fetch_sub(v); }

// The plan prelude: copies at once, stores plainly.
template <typename T> inline void culift_copy_async(T* shared, const T* global) { *shared = *global; }
inline void culift_copy_commit() {}
// A 16-byte copy's addresses are 16-byte aligned on the device (else the launch faults): so here.
inline void culift_copy_async16(void* shared, const void* global, int bytes) {
  if (reinterpret_cast<std::uintptr_t>(shared) % 16 || reinterpret_cast<std::uintptr_t>(global) % 16) {
    std::fprintf(stderr, "culift_copy_async16: an address not 16-byte aligned (%p <- %p)\n", shared, global);
    std::abort();
  }
  for (int b = 0; b < 16; ++b) static_cast<char*>(shared)[b] = b < bytes ? static_cast<const char*>(global)[b] : 0;
}
// A shared address is a pointer here.
typedef char* culift_saddr;
inline culift_saddr culift_shared_at(const void* shared) { return static_cast<char*>(const_cast<void*>(shared)); }
inline void culift_copy_async16_at(culift_saddr shared, const void* global) { culift_copy_async16(shared, global, 16); }
template <typename T> inline void culift_copy_group4(T* shared, const T* global, long long x0, long long count) {
  for (int u = 0; u < 4; ++u) shared[u] = x0 + u >= 0 && x0 + u < count ? global[x0 + u] : T(0);
}
template <int N> inline void culift_copy_wait() {}
template <typename T> inline void culift_store_streaming(T* global, T value) { *global = value; }
// An entry and its edge kernel run one after the other here: their order needs nothing.
inline void culift_start_edge() {}
inline void culift_wait_for_entry() {}

// The tensor-core prelude: the same roundings; an mma exchanges the warp's fragments through its
// registers table and adds each output's products in k order (the bound of the numerical contract
// holds for any order; the hardware's is its own).
inline unsigned culift_tf32(float x) {
  const unsigned b = __float_as_uint(x);
  if ((b & 0x7f800000u) == 0x7f800000u) return (b & 0x007fffffu) ? (b | 0x00400000u) & 0xffffe000u : b;
  return (b + 0x1000u) & 0xffffe000u;
}
inline unsigned culift_bf16_bits(float x) {
  const unsigned b = __float_as_uint(x);
  if ((b & 0x7fffffffu) > 0x7f800000u) return (b >> 16) | 0x0040u;
  return (b + 0x7fffu + ((b >> 16) & 1u)) >> 16;
}
inline unsigned culift_f16_bits(float x) {
  const _Float16 h = static_cast<_Float16>(x);
  unsigned short v;
  std::memcpy(&v, &h, 2);
  return v;
}
inline unsigned culift_f16x2(float lo, float hi) { return culift_f16_bits(lo) | (culift_f16_bits(hi) << 16); }
inline unsigned culift_bf16x2(float lo, float hi) { return culift_bf16_bits(lo) | (culift_bf16_bits(hi) << 16); }
inline float culift_half_value(unsigned v, int h, bool bf16) {
  const unsigned short bits = static_cast<unsigned short>(h ? v >> 16 : v & 0xffffu);
  if (bf16) return __uint_as_float(static_cast<unsigned>(bits) << 16);
  _Float16 f;
  std::memcpy(&f, &bits, 2);
  return static_cast<float>(f);
}
// D += A B for the warp's 16 x 8 tile; `element(regs, row, k, col)` reads the operands from the
// lanes' registers (A's row `row` at k, or B's column `col` at k).
template <typename A, typename B> inline void culift_mma_emulated(float& d0, float& d1, float& d2, float& d3,
                                                                  const unsigned (&mine)[6], int steps, A a, B b) {
  culift_emulation::Warp& w = culift_emulation::warp();
  const unsigned lane = culift_emulation::linearThread % 32, g = lane / 4, t = lane % 4;
  for (int q = 0; q < 6; ++q) w.registers[lane][q] = mine[q];
  w.barrier->arrive_and_wait();
  float s[4] = {d0, d1, d2, d3};
  for (int k = 0; k < steps; ++k) {
    const float x0 = a(w, g, k), x8 = a(w, g + 8, k), y0 = b(w, k, 2 * t), y1 = b(w, k, 2 * t + 1);
    s[0] += x0 * y0;
    s[1] += x0 * y1;
    s[2] += x8 * y0;
    s[3] += x8 * y1;
  }
  w.barrier->arrive_and_wait();
  d0 = s[0];
  d1 = s[1];
  d2 = s[2];
  d3 = s[3];
}
inline void culift_mma_tf32(float& d0, float& d1, float& d2, float& d3, unsigned a0, unsigned a1, unsigned a2,
                            unsigned a3, unsigned b0, unsigned b1) {
  const unsigned mine[6] = {a0, a1, a2, a3, b0, b1};
  culift_mma_emulated(
      d0, d1, d2, d3, mine, 8,
      [](const culift_emulation::Warp& w, unsigned r, int k) {
        return __uint_as_float(w.registers[(r % 8) * 4 + k % 4][(r >= 8 ? 1 : 0) + (k >= 4 ? 2 : 0)]);
      },
      [](const culift_emulation::Warp& w, int k, unsigned n) {
        return __uint_as_float(w.registers[n * 4 + k % 4][k >= 4 ? 5 : 4]);
      });
}
// Entries on warpgroups (the wgmma body, compiled here as for sm_90a: cuda_emulation.hpp defines
// __CUDA_ARCH_FEAT_SM90_ALL). The descriptor carries the stage's host address; a wgmma of the
// block's workers (every worker calls it for each step, as the entry does) meets the others at their
// workers' barrier: each thread leaves its four fragments in a table, the workers meet, each thread adds
// its sums' products of the step in k order (64 or 128: a block of 128 or 256 rows), reading the warpgroup's fragments
// from the table and the row operand from the swizzled tile as the tensor cores do (absolute address bits 4-6 XORed
// with bits 7-9; the top 19 bits of each value, the tensor cores' tf32), the workers meet again.
#define CULIFT_WARPGROUP_BLOCKS 1
inline unsigned long long culift_wgmma_descriptor(const void* shared) {
  return static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(shared));
}
inline void culift_fence_async_shared() {}
// Bulk tensor copies: the emulated map holds the matrix itself (tensor_map.hpp), and a
// copy lands at once, swizzled as the device lays it (16-byte chunk c of box row r at c ^ (r % 8)).
// The mbarriers count as the device's do: a phase completes when its arrivals are all in and the
// bytes expected have landed, and a wait for parity p returns once the phase of that parity is
// complete (at once for 1 before the first phase completes).
namespace culift_emulation {
struct MBarrier {
  unsigned count = 0, pending = 0, phase = 0;
  long long bytes = 0;  // expected and not yet landed
};
inline std::mutex mbarrierLock;
inline std::condition_variable mbarrierMoved;
inline std::map<const void*, MBarrier> mbarriers;  // by the barrier's address (one block runs at a time)
inline void mbarrierStep(MBarrier& b, unsigned arrivals, long long expected) {
  b.pending -= arrivals;
  b.bytes += expected;
  if (b.pending == 0 && b.bytes == 0) {
    ++b.phase;
    b.pending = b.count;
    mbarrierMoved.notify_all();
  }
}
}  // namespace culift_emulation
inline void culift_barrier_init(unsigned long long* bar, unsigned count) {
  std::lock_guard<std::mutex> lock(culift_emulation::mbarrierLock);
  culift_emulation::mbarriers[bar] = {count, count, 0, 0};
}
inline void culift_barrier_arrive(unsigned long long* bar) {
  std::lock_guard<std::mutex> lock(culift_emulation::mbarrierLock);
  culift_emulation::mbarrierStep(culift_emulation::mbarriers.at(bar), 1, 0);
}
inline void culift_expect_bytes(unsigned long long* bar, unsigned bytes) {
  std::lock_guard<std::mutex> lock(culift_emulation::mbarrierLock);
  culift_emulation::mbarrierStep(culift_emulation::mbarriers.at(bar), 1, bytes);
}
inline void culift_tensor_copy(void* shared, const culift_tensor_map& map, int c, int r, unsigned long long* bar) {
  float* to = static_cast<float*>(shared);
  for (int y = 0; y < map.boxRows; ++y)
    for (int x = 0; x < map.boxCols; ++x) {
      const long long row = r + y, col = c + x;
      const float v = row < map.rows && col < map.cols ? map.base[row * map.stride + col] : 0.0f;
      to[y * map.boxCols + (((x / 4) ^ (y % 8)) * 4) + x % 4] = v;
    }
  std::lock_guard<std::mutex> lock(culift_emulation::mbarrierLock);
  culift_emulation::mbarrierStep(culift_emulation::mbarriers.at(bar), 0, -4LL * map.boxRows * map.boxCols);
}
inline void culift_barrier_wait(unsigned long long* bar, unsigned parity) {
  std::unique_lock<std::mutex> lock(culift_emulation::mbarrierLock);
  const culift_emulation::MBarrier& b = culift_emulation::mbarriers.at(bar);
  culift_emulation::mbarrierMoved.wait(lock, [&] { return (b.phase & 1u) != parity; });
}
// An entry with a copying warpgroup: its workers' barrier; the registers' moves are the device's.
inline void culift_sync_workers() { culift_emulation::workers->arrive_and_wait(); }
inline void culift_registers_copier() {}
inline void culift_prefetch_l2(const void*) {}
inline void culift_registers_worker() {}
inline void culift_wgmma_fence() {}
inline void culift_wgmma_commit_wait() {}
template <unsigned M> inline void culift_wgmma_tf32(float (&d)[M][2], unsigned a0, unsigned a1, unsigned a2,
                                                    unsigned a3, unsigned long long desc) {
  static unsigned table[1024][4];  // one block runs at a time
  const unsigned t = culift_emulation::linearThread;
  table[t][0] = a0;
  table[t][1] = a1;
  table[t][2] = a2;
  table[t][3] = a3;
  culift_emulation::workers->arrive_and_wait();
  const unsigned group = t / 128, warp = t % 128 / 32, lane = t % 32, g = lane / 4, q = lane % 4;
  auto a = [&](unsigned column, int k) {  // column of the warpgroup's 64, k of the step's 8
    const unsigned owner = group * 128 + column / 16 * 32 + column % 8 * 4 + static_cast<unsigned>(k % 4);
    return __uint_as_float(table[owner][(column % 16 >= 8 ? 1 : 0) + (k >= 4 ? 2 : 0)]);
  };
  auto b = [&](unsigned row, int k) {  // row of the block's 4 M
    const std::uintptr_t at = static_cast<std::uintptr_t>(desc) + row * 128 + static_cast<unsigned>(k) * 4;
    float v;
    std::memcpy(&v, reinterpret_cast<const void*>(at ^ (((at >> 7) & 7) << 4)), sizeof v);
    return __uint_as_float(__float_as_uint(v) & 0xffffe000u);
  };
  for (unsigned m = 0; m < M; ++m)
    for (unsigned n = 0; n < 2; ++n) {
      const unsigned column = warp * 16 + g + 8 * n, row = m / 2 * 8 + 2 * q + m % 2;
      float s = d[m][n];
      for (int k = 0; k < 8; ++k) s += a(column, k) * b(row, k);
      d[m][n] = s;
    }
  culift_emulation::workers->arrive_and_wait();
}
template <bool bf16> inline void culift_mma_half(float& d0, float& d1, float& d2, float& d3, unsigned a0, unsigned a1,
                                                 unsigned a2, unsigned a3, unsigned b0, unsigned b1) {
  const unsigned mine[6] = {a0, a1, a2, a3, b0, b1};
  culift_mma_emulated(
      d0, d1, d2, d3, mine, 16,
      [](const culift_emulation::Warp& w, unsigned r, int k) {
        return culift_half_value(w.registers[(r % 8) * 4 + (k % 8) / 2][(r >= 8 ? 1 : 0) + (k >= 8 ? 2 : 0)], k % 2,
                                 bf16);
      },
      [](const culift_emulation::Warp& w, int k, unsigned n) {
        return culift_half_value(w.registers[n * 4 + (k % 8) / 2][k >= 8 ? 5 : 4], k % 2, bf16);
      });
}
