// Launch plans: grid and block shapes that cover a whole index space. Emitted kernels walk their
// index space with grid-stride loops, so a grid capped at the device limits still covers every
// index; the planner never under-covers and never exceeds a limit.
#pragma once

#include <cstdint>
#include <string>

namespace culift::rt {

struct Dim3 {
  unsigned x = 1, y = 1, z = 1;
  std::uint64_t volume() const { return std::uint64_t{x} * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

// Device limits a plan respects. The defaults hold for every device of compute capability 3.0
// and later; an engine plans with its device's own values.
struct GridLimits {
  unsigned maxGrid[3] = {2147483647u, 65535u, 65535u};
  unsigned maxBlock[3] = {1024u, 1024u, 64u};
  unsigned maxThreadsPerBlock = 1024;
  unsigned maxSharedPerBlock = 48 * 1024;  // dynamic shared memory a block may opt into (bytes)
};

// Axis mapping (as the emitter writes it; the last axis on x, C order): i → x for 1-D; 2-D: i
// (rows) on y, j (columns) on x; 3-D: i on z, j on y, k on x.
struct LaunchPlan {
  unsigned rank = 1;                   // axes of the index space: 1, 2 or 3
  std::int64_t extent[3] = {0, 1, 1};  // n_i, n_j, n_k (unused axes are 1)
  Dim3 grid;
  Dim3 block;
  unsigned sharedBytes = 0;
  bool wideIndices = false;  // launch a kernel's 64-bit-index entry even where the
                             // 32-bit one would do (comparisons, tests)
  bool perThread = false;    // launch a per-thread entry even where the kernel's
                             // loop plan has a faster one (comparisons, tests)
  // A part of the launch: the outputs [partFirst, partLast) in row-major order (i slowest), the
  // others left as they are; partLast -1: to the last output. A launch split over processes
  // (culift/mpi.hpp) runs one part per rank, one over devices (DeviceGroup) one per device. The
  // CPU backend runs parts as it runs launches; the GPU backend runs a part of whole rows with the
  // kernel's plan entry where its mapping takes parts (choosePlanEntry), any other part with its
  // part wrapper (Function::partKernelName: one output per thread, no loop plan).
  std::int64_t partFirst = 0;
  std::int64_t partLast = -1;
  // A part of a square launch of a symmetric kernel (mirrored tiles: BlockMapping::Triangle) run
  // as a band of its triangle: the part's rows (whole rows, starting at a tile's first row) take
  // the tiles on and below the diagonal, and each result is stored at (i, j) and (j, i), so the
  // outputs written are those tiles and their mirror, not the part's range. What a device group
  // runs on each GPU for such a kernel (triangleBand); an ArgumentError where the kernel has no
  // mirrored tiles for the part, and on the CPU backend.
  bool partTriangle = false;

  std::int64_t elements() const;  // n_i * n_j * n_k, the size of a kernel's `out` array
  friend bool operator==(const LaunchPlan&, const LaunchPlan&) = default;
  bool empty() const { return elements() == 0; }
  std::int64_t partEnd() const { return partLast < 0 ? elements() : partLast; }  // the part's end, resolved
  bool whole() const { return partFirst == 0 && partEnd() == elements(); }
  std::string toString() const;  // "2-D 1024x1024: grid (64, 64, 1) x block (16, 16, 1)"
};

class LaunchPlanner {
 public:
  // Throws ArgumentError for a negative extent or a block the limits do not allow.
  static LaunchPlan for1D(std::int64_t n, unsigned block = 256, const GridLimits& limits = {});
  static LaunchPlan for2D(std::int64_t rows, std::int64_t cols, unsigned blockX = 16, unsigned blockY = 16,
                          const GridLimits& limits = {});
  static LaunchPlan for3D(std::int64_t ni, std::int64_t nj, std::int64_t nk, unsigned blockX = 8, unsigned blockY = 8,
                          unsigned blockZ = 4, const GridLimits& limits = {});
  // A plan for `rank` axes with about `threadsPerBlock` threads per block (an occupancy figure):
  // 1-D gets them all on x; 2-D a 32-wide row of warps; 3-D 32 (k) x (n/128) (j) x 4 (i).
  static LaunchPlan forThreads(unsigned rank, const std::int64_t extent[3], unsigned threadsPerBlock,
                               const GridLimits& limits = {});
};

}  // namespace culift::rt
