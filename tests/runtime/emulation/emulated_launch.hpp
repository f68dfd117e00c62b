// The launch side of the host emulation of CUDA C (cuda_emulation.hpp): the thread and block
// indices, and culiftEmulatedLaunch, for the tests that call emulated kernels.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <memory>
#include <thread>
#include <vector>

struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};

inline thread_local uint3 threadIdx;
inline uint3 blockIdx;
inline dim3 blockDim, gridDim;

namespace culift_emulation {
inline std::barrier<>* barrier = nullptr;
// The block's first 256 threads (all of a smaller block): an entry's workers, which meet at
// culift_sync_workers and at each warpgroup multiply while a copying warpgroup may still run.
inline constexpr unsigned kWorkers = 256;
inline std::barrier<>* workers = nullptr;
inline std::atomic<unsigned> falses{0};
// A warp: 32 consecutive threads of the block (the last may have fewer), meeting at their own
// barrier to exchange registers (the tensor-core operations, host_prelude.hpp; the shuffles and
// votes, cuda_emulation.hpp). `active`: the lanes still running (a lane that returned drops out).
struct Warp {
  std::unique_ptr<std::barrier<>> barrier;
  std::array<std::array<unsigned, 8>, 32> registers{};
  std::array<std::atomic<bool>, 32> active{};
};
inline std::vector<std::unique_ptr<Warp>> warps;
inline thread_local unsigned linearThread = 0;  // threadIdx as one number, x fastest
inline Warp& warp() { return *warps[linearThread / 32]; }
}  // namespace culift_emulation

// Runs `body` as the kernel of a launch of `grid` x `block` threads: block by block, each
// block's threads at once. A thread that returns drops out of the block's barriers.
template <typename F> void culiftEmulatedLaunch(dim3 grid, dim3 block, F&& body) {
  gridDim = grid;
  blockDim = block;
  const unsigned n = block.x * block.y * block.z;
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx) {
        blockIdx = uint3{bx, by, bz};
        std::barrier<> b(static_cast<std::ptrdiff_t>(n));
        culift_emulation::barrier = &b;
        std::barrier<> workers(static_cast<std::ptrdiff_t>(std::min(n, culift_emulation::kWorkers)));
        culift_emulation::workers = &workers;
        culift_emulation::warps.clear();
        for (unsigned w = 0; w < (n + 31) / 32; ++w) {
          const unsigned lanes = std::min(32u, n - 32 * w);
          auto& warp = culift_emulation::warps.emplace_back(std::make_unique<culift_emulation::Warp>());
          warp->barrier = std::make_unique<std::barrier<>>(static_cast<std::ptrdiff_t>(lanes));
          for (unsigned l = 0; l < lanes; ++l) warp->active[l] = true;
        }
        std::vector<std::thread> threads;
        threads.reserve(n);
        for (unsigned t = 0; t < n; ++t)
          threads.emplace_back([&, t] {
            threadIdx = uint3{t % block.x, t / block.x % block.y, t / (block.x * block.y)};
            culift_emulation::linearThread = t;
            body();
            b.arrive_and_drop();
            if (t < culift_emulation::kWorkers) workers.arrive_and_drop();
            culift_emulation::warp().active[t % 32] = false;
            culift_emulation::warp().barrier->arrive_and_drop();
          });
        for (std::thread& t : threads) t.join();
      }
}
