#include "culift/runtime/plan.hpp"

#include <algorithm>
#include <string>

#include "culift/runtime/error.hpp"

namespace culift::rt {
namespace {

const char* kAxisNames[3] = {"i", "j", "k"};

void checkExtent(std::int64_t n, int axis) {
  if (n < 0)
    throw ArgumentError("launch plan: extent of axis " + std::string(kAxisNames[axis]) + " is negative (" +
                        std::to_string(n) + ")");
}

void checkBlock(const Dim3& b, const GridLimits& limits) {
  const unsigned dims[3] = {b.x, b.y, b.z};
  for (int a = 0; a < 3; ++a) {
    if (dims[a] == 0) throw ArgumentError("launch plan: block dimension " + std::string(1, "xyz"[a]) + " is 0");
    if (dims[a] > limits.maxBlock[a])
      throw ArgumentError("launch plan: block dimension " + std::string(1, "xyz"[a]) + " = " + std::to_string(dims[a]) +
                          " exceeds the device limit " + std::to_string(limits.maxBlock[a]));
  }
  if (b.volume() > limits.maxThreadsPerBlock)
    throw ArgumentError("launch plan: block of " + std::to_string(b.volume()) + " threads exceeds the limit of " +
                        std::to_string(limits.maxThreadsPerBlock) + " threads per block");
}

// Blocks needed along one grid axis, capped at the limit (grid-stride loops cover the rest).
// An empty axis still gets one block so the grid stays valid; empty plans are not launched.
unsigned blocksFor(std::int64_t n, unsigned block, unsigned limit) {
  if (n <= 0) return 1;
  std::uint64_t blocks = (static_cast<std::uint64_t>(n) + block - 1) / block;
  return static_cast<unsigned>(std::min<std::uint64_t>(blocks, limit));
}

}  // namespace

std::int64_t LaunchPlan::elements() const {
  std::int64_t total = 1;
  for (unsigned a = 0; a < 3; ++a) {
    if (extent[a] == 0) return 0;
    if (__builtin_mul_overflow(total, extent[a], &total)) return INT64_MAX;
  }
  return total;
}

std::string LaunchPlan::toString() const {
  std::string s = std::to_string(rank) + "-D ";
  for (unsigned a = 0; a < rank; ++a) s += (a ? "x" : "") + std::to_string(extent[a]);
  auto dim = [](const Dim3& d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
  };
  return s + ": grid " + dim(grid) + " x block " + dim(block);
}

LaunchPlan LaunchPlanner::for1D(std::int64_t n, unsigned block, const GridLimits& limits) {
  checkExtent(n, 0);
  LaunchPlan p;
  p.rank = 1;
  p.extent[0] = n;
  p.block = {block, 1, 1};
  checkBlock(p.block, limits);
  p.grid = {blocksFor(n, block, limits.maxGrid[0]), 1, 1};
  return p;
}

LaunchPlan LaunchPlanner::for2D(std::int64_t rows, std::int64_t cols, unsigned blockX, unsigned blockY,
                                const GridLimits& limits) {
  checkExtent(rows, 0);
  checkExtent(cols, 1);
  LaunchPlan p;
  p.rank = 2;
  p.extent[0] = rows;
  p.extent[1] = cols;
  p.block = {blockX, blockY, 1};
  checkBlock(p.block, limits);
  p.grid = {blocksFor(cols, blockX, limits.maxGrid[0]), blocksFor(rows, blockY, limits.maxGrid[1]), 1};
  return p;
}

LaunchPlan LaunchPlanner::for3D(std::int64_t ni, std::int64_t nj, std::int64_t nk, unsigned blockX, unsigned blockY,
                                unsigned blockZ, const GridLimits& limits) {
  checkExtent(ni, 0);
  checkExtent(nj, 1);
  checkExtent(nk, 2);
  LaunchPlan p;
  p.rank = 3;
  p.extent[0] = ni;
  p.extent[1] = nj;
  p.extent[2] = nk;
  p.block = {blockX, blockY, blockZ};
  checkBlock(p.block, limits);
  p.grid = {blocksFor(nk, blockX, limits.maxGrid[0]), blocksFor(nj, blockY, limits.maxGrid[1]),
            blocksFor(ni, blockZ, limits.maxGrid[2])};
  return p;
}

LaunchPlan LaunchPlanner::forThreads(unsigned rank, const std::int64_t extent[3], unsigned threadsPerBlock,
                                     const GridLimits& limits) {
  unsigned t = std::clamp(threadsPerBlock, 32u, limits.maxThreadsPerBlock);
  t -= t % 32;
  switch (rank) {
    case 1: return for1D(extent[0], std::min(t, limits.maxBlock[0]), limits);
    case 2: return for2D(extent[0], extent[1], 32, std::min(t / 32, limits.maxBlock[1]), limits);
    case 3:
      return for3D(extent[0], extent[1], extent[2], 32, std::max(1u, std::min(t / 128, limits.maxBlock[1])),
                   std::min(4u, limits.maxBlock[2]), limits);
    default: throw ArgumentError("launch plan: rank " + std::to_string(rank) + " is not 1, 2 or 3");
  }
}

}  // namespace culift::rt
