// The planner covers the whole index space: grid x block reaches every index, or, where the
// grid is capped at the device limit, the kernels' grid-stride loops do.
#include <cstdint>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/plan.hpp"

using namespace culift::rt;

namespace {

// Visits indices as the emitted grid-stride loop does along one axis; counts visits.
std::vector<int> strideVisits(std::int64_t n, unsigned blocks, unsigned block) {
  std::vector<int> visits(static_cast<std::size_t>(n), 0);
  const std::int64_t stride = std::int64_t{blocks} * block;
  for (std::int64_t t = 0; t < stride; ++t)
    for (std::int64_t idx = t; idx < n; idx += stride) ++visits[static_cast<std::size_t>(idx)];
  return visits;
}

bool exactlyOnce(const std::vector<int>& v) {
  for (int c : v)
    if (c != 1) return false;
  return true;
}

}  // namespace

TEST_CASE("1-D plans cover n with the fewest blocks", "[plan]") {
  for (std::int64_t n : {1, 255, 256, 257, 1000, 65536}) {
    LaunchPlan p = LaunchPlanner::for1D(n, 256);
    CHECK(p.rank == 1);
    CHECK(p.elements() == n);
    CHECK(std::int64_t{p.grid.x} * p.block.x >= n);
    CHECK(std::int64_t{p.grid.x - 1} * p.block.x < n);
  }
}

TEST_CASE("a grid capped at the device limit still covers every index with stride loops", "[plan]") {
  GridLimits small;
  small.maxGrid[0] = 3;
  small.maxGrid[1] = 2;
  LaunchPlan p = LaunchPlanner::for1D(1000, 32, small);
  CHECK(p.grid.x == 3);
  CHECK(exactlyOnce(strideVisits(1000, p.grid.x, p.block.x)));

  LaunchPlan q = LaunchPlanner::for2D(/*rows=*/77, /*cols=*/50, 8, 4, small);
  CHECK(q.grid.x == 3);  // columns on x
  CHECK(q.grid.y == 2);  // rows on y
  CHECK(exactlyOnce(strideVisits(50, q.grid.x, q.block.x)));
  CHECK(exactlyOnce(strideVisits(77, q.grid.y, q.block.y)));
}

TEST_CASE("2-D and 3-D plans map i to y, j to x, k to z", "[plan]") {
  LaunchPlan p = LaunchPlanner::for2D(1024, 100, 16, 16);
  CHECK(p.extent[0] == 1024);
  CHECK(p.extent[1] == 100);
  CHECK(p.grid == Dim3{7, 64, 1});
  CHECK(p.elements() == 102400);

  LaunchPlan q = LaunchPlanner::for3D(10, 20, 30, 8, 8, 4);
  CHECK(q.grid == Dim3{3, 2, 8});
  CHECK(q.elements() == 6000);
  CHECK(q.toString() == "3-D 10x20x30: grid (3, 2, 8) x block (8, 8, 4)");
}

TEST_CASE("the default limits cap y and z at 65535 blocks", "[plan]") {
  LaunchPlan p = LaunchPlanner::for2D(std::int64_t{1} << 24, 1, 1, 1);
  CHECK(p.grid.y == 65535u);
  LaunchPlan q = LaunchPlanner::for1D(std::int64_t{1} << 40, 256);
  CHECK(q.grid.x == 2147483647u);
}

TEST_CASE("empty extents give an empty plan, negative ones and bad blocks an error", "[plan]") {
  CHECK(LaunchPlanner::for1D(0).empty());
  CHECK(LaunchPlanner::for2D(5, 0).empty());
  CHECK_THROWS_AS(LaunchPlanner::for1D(-1), ArgumentError);
  CHECK_THROWS_AS(LaunchPlanner::for1D(10, 0), ArgumentError);
  CHECK_THROWS_AS(LaunchPlanner::for1D(10, 2048), ArgumentError);
  CHECK_THROWS_AS(LaunchPlanner::for2D(10, 10, 64, 32), ArgumentError);  // 2048 threads
  CHECK_THROWS_AS(LaunchPlanner::for3D(1, 1, 1, 1, 1, 128), ArgumentError);  // z block limit 64
}

TEST_CASE("occupancy-shaped plans keep warps whole and stay within limits", "[plan]") {
  const std::int64_t e[3] = {1000, 1000, 10};
  LaunchPlan a = LaunchPlanner::forThreads(1, e, 768);
  CHECK(a.block == Dim3{768, 1, 1});
  LaunchPlan b = LaunchPlanner::forThreads(2, e, 1024);
  CHECK(b.block == Dim3{32, 32, 1});
  LaunchPlan c = LaunchPlanner::forThreads(3, e, 1024);
  CHECK(c.block == Dim3{32, 8, 4});
  LaunchPlan d = LaunchPlanner::forThreads(2, e, 40);  // rounded to one warp
  CHECK(d.block == Dim3{32, 1, 1});
}
