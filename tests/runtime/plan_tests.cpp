// The planner covers the whole index space: grid x block reaches every index, or, where the
// grid is capped at the device limit, the kernels' grid-stride loops do.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/kernel.hpp"
#include "culift/runtime/plan.hpp"
#include "culift/runtime/tuning.hpp"
#include "temp_files.hpp"

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

TEST_CASE("2-D plans map i to y, j to x; 3-D plans i to z, j to y, k to x (C order)", "[plan]") {
  LaunchPlan p = LaunchPlanner::for2D(1024, 100, 16, 16);
  CHECK(p.extent[0] == 1024);
  CHECK(p.extent[1] == 100);
  CHECK(p.grid == Dim3{7, 64, 1});
  CHECK(p.elements() == 102400);

  LaunchPlan q = LaunchPlanner::for3D(10, 20, 30, 8, 8, 4);
  CHECK(q.grid == Dim3{4, 3, 3});  // k: 30 / 8 on x, j: 20 / 8 on y, i: 10 / 4 on z
  CHECK(q.elements() == 6000);
  CHECK(q.toString() == "3-D 10x20x30: grid (4, 3, 3) x block (8, 8, 4)");
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
  CHECK_THROWS_AS(LaunchPlanner::for2D(10, 10, 64, 32), ArgumentError);      // 2048 threads
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

// ---- Which entry a launch takes: the 32-bit one whenever its indices fit --------------------

namespace {

culift::Function kernelOf(culift::IndexMode mode, unsigned itemsPerThread) {
  culift::Function f;
  f.name = "k";
  f.mode = mode;
  f.itemsPerThread = itemsPerThread;
  f.kernelName = "k_kernel";
  f.wideKernelName = "k_kernel64";
  return f;
}

// An element-wise kernel's arrays: one float input and the float out, at these addresses.
std::vector<ResolvedArg> elementArrays(culift::KernelSignature& sig, std::uint64_t in, std::uint64_t out) {
  sig.params = {culift::KernelParam{"a", culift::Type::pointer(culift::Scalar::F32, true),
                                    culift::ParamRole::PerElementScalar, 0, -1},
                culift::KernelParam{"culift_out", culift::Type::pointer(culift::Scalar::F32, false),
                                    culift::ParamRole::ResultArray, -1, -1}};
  std::vector<ResolvedArg> args(2);
  for (int k = 0; k < 2; ++k) {
    args[k].param = &sig.params[k];
    args[k].isBuffer = true;
    args[k].buffer.element = culift::Scalar::F32;
  }
  args[0].buffer.address = in;
  args[1].buffer.address = out;
  return args;
}

}  // namespace

TEST_CASE("the 32-bit entry runs while every index fits in an int, with the grid shrunk by its items", "[plan]") {
  const culift::Function one = kernelOf(culift::IndexMode::Grid1D, 1);
  const culift::Function four = kernelOf(culift::IndexMode::Grid1D, 4);
  LaunchPlan p = LaunchPlanner::for1D(1 << 20, 256);
  auto narrow = narrowIndexPlan(one, p, {});
  REQUIRE(narrow);
  CHECK(narrow->grid.x == p.grid.x);
  narrow = narrowIndexPlan(four, p, {});
  REQUIRE(narrow);
  CHECK(narrow->grid.x == p.grid.x / 4);  // each thread takes 4 indices
  CHECK(narrow->block == p.block);
  // Past INT32_MAX (extent plus one grid's stride): the 64-bit entry.
  CHECK_FALSE(narrowIndexPlan(one, LaunchPlanner::for1D(INT32_MAX, 256), {}));
  CHECK_FALSE(narrowIndexPlan(one, LaunchPlanner::for1D(INT32_MAX - 100, 256), {}));
  // Near the limit the grid shrinks so that extent + stride fits; the loops take more steps.
  const LaunchPlan big = LaunchPlanner::for1D(1ll << 30, 256);
  narrow = narrowIndexPlan(one, big, {});
  REQUIRE(narrow);
  CHECK(narrow->grid.x < big.grid.x);
  CHECK((1ll << 30) + std::int64_t{narrow->grid.x} * 256 <= INT32_MAX);
  narrow = narrowIndexPlan(four, LaunchPlanner::for1D(INT32_MAX - (1 << 20), 256), {});
  REQUIRE(narrow);
  CHECK(narrow->grid.x == 1024);  // (2^20 of room) / (256 threads x 4 indices)
  // 2-D: the flat index of out (rows * cols) must fit too, and j runs on x.
  const culift::Function cells = kernelOf(culift::IndexMode::Grid2D, 4);
  CHECK_FALSE(narrowIndexPlan(cells, LaunchPlanner::for2D(65536, 65536, 16, 16), {}));
  narrow = narrowIndexPlan(cells, LaunchPlanner::for2D(4096, 4096, 16, 16), {});
  REQUIRE(narrow);
  CHECK(narrow->grid.x == 4096 / 16 / 4);
  CHECK(narrow->grid.y == 4096 / 16);
  // A plan asking for the 64-bit entry is the caller's to honour; narrowing never grows a grid.
  LaunchPlan small = LaunchPlanner::for1D(1000, 32);
  small.grid.x = 1;
  narrow = narrowIndexPlan(four, small, {});
  REQUIRE(narrow);
  CHECK(narrow->grid.x == 1);
}

TEST_CASE("vectorized element-wise launches need every array aligned to its vector", "[plan]") {
  culift::Function ew = kernelOf(culift::IndexMode::ElementWise, 4);
  const LaunchPlan p = LaunchPlanner::for1D(4096, 256);
  CHECK(narrowIndexPlan(ew, p, elementArrays(ew.signature, 0x10000, 0x20000)));
  CHECK_FALSE(narrowIndexPlan(ew, p, elementArrays(ew.signature, 0x10004, 0x20000)));  // 4 bytes off a float4
  CHECK_FALSE(narrowIndexPlan(ew, p, elementArrays(ew.signature, 0x10000, 0x20008)));
  ew.itemsPerThread = 1;  // scalar entry: any alignment
  CHECK(narrowIndexPlan(ew, p, elementArrays(ew.signature, 0x10004, 0x20008)));
}

TEST_CASE("a 32-bit entry that assumes aligned arrays runs only on aligned arrays", "[plan]") {
  culift::Function records = kernelOf(culift::IndexMode::Grid1D, 1);
  records.arrayAlignment = 16;
  const LaunchPlan p = LaunchPlanner::for1D(4096, 256);
  CHECK(narrowIndexPlan(records, p, elementArrays(records.signature, 0x10000, 0x20000)));
  CHECK_FALSE(narrowIndexPlan(records, p, elementArrays(records.signature, 0x10008, 0x20000)));
  CHECK_FALSE(narrowIndexPlan(records, p, elementArrays(records.signature, 0x10000, 0x20004)));
}

// ---- Which entry of a loop plan a launch takes ----------------------------------------------

namespace {

culift::PlanEntry planEntry(std::string name, culift::LoopPlan plan, unsigned tile, bool square) {
  culift::PlanEntry e;
  e.kernelName = std::move(name);
  e.plan = plan;
  e.tileRows = tile;
  e.tileCols = plan == culift::LoopPlan::RowReduction || plan == culift::LoopPlan::ReassociatingRowReduction ? 1 : tile;
  e.threads = 256;
  e.squareOnly = square;
  return e;
}

// The entries the planner gives a symmetric contraction and a row reduction.
culift::Function planned(culift::IndexMode mode) {
  culift::Function f = kernelOf(mode, 1);
  using culift::LoopPlan;
  if (mode == culift::IndexMode::Grid2D)
    f.planEntries = {planEntry("k_sym128", LoopPlan::SymmetricTiledContraction, 128, true),
                     planEntry("k_sym64", LoopPlan::SymmetricTiledContraction, 64, true),
                     planEntry("k_tiled128", LoopPlan::TiledContraction, 128, false),
                     planEntry("k_tiled64", LoopPlan::TiledContraction, 64, false)};
  else
    f.planEntries = {planEntry("k_rows32", LoopPlan::RowReduction, 32, false),
                     planEntry("k_rows8", LoopPlan::RowReduction, 8, false)};
  return f;
}

DeviceInfo device132() {
  DeviceInfo d;
  d.multiprocessors = 132;
  return d;
}

std::string chosen(const culift::Function& f, const LaunchPlan& p, const DeviceInfo& d = device132()) {
  auto c = choosePlanEntry(f, p, d);
  return c ? f.planEntries.at(c->entry).kernelName : std::string("per-thread");
}

}  // namespace

TEST_CASE("a launch takes the largest tile of the fastest plan that fills the device", "[plan]") {
  const culift::Function cells = planned(culift::IndexMode::Grid2D);
  // Square: mirrored tiles; 32 tiles a side give 528 blocks of 128 x 128.
  auto big = choosePlanEntry(cells, LaunchPlanner::for2D(4096, 4096), device132());
  REQUIRE(big);
  CHECK(cells.planEntries[big->entry].kernelName == "k_sym128");
  CHECK(big->plan.grid == Dim3{528, 1, 1});
  CHECK(big->plan.block == Dim3{256, 1, 1});
  CHECK(big->plan.extent[0] == 4096);
  // 8 tiles a side give 36 blocks of 128: too few for 132 multiprocessors; 16 of 64 give 136.
  CHECK(chosen(cells, LaunchPlanner::for2D(1024, 1024)) == "k_sym64");
  // Not square: the plain tiles, 2-D grid (columns on x).
  auto wide = choosePlanEntry(cells, LaunchPlanner::for2D(1000, 4096), device132());
  REQUIRE(wide);
  CHECK(cells.planEntries[wide->entry].kernelName == "k_tiled128");
  CHECK(wide->plan.grid == Dim3{32, 8, 1});
  CHECK(chosen(cells, LaunchPlanner::for2D(7, 129)) == "k_tiled64");  // the smallest tile of the plan
  // The caller asks for a per-thread entry, or an index could pass 2^31 - 1.
  LaunchPlan forced = LaunchPlanner::for2D(4096, 4096);
  forced.perThread = true;
  CHECK(chosen(cells, forced) == "per-thread");
  forced = LaunchPlanner::for2D(4096, 4096);
  forced.wideIndices = true;
  CHECK(chosen(cells, forced) == "per-thread");
  CHECK(chosen(cells, LaunchPlanner::for2D(65536, 65536)) == "per-thread");
  // A grid the device cannot take: the next entry, else per-thread.
  DeviceInfo small = device132();
  small.limits.maxGrid[0] = 100;
  CHECK(chosen(cells, LaunchPlanner::for2D(4096, 4096), small) == "k_tiled128");  // 32 x 32 fits, 528 does not
  small.limits.maxGrid[0] = 10;
  CHECK(chosen(cells, LaunchPlanner::for2D(4096, 4096), small) == "per-thread");
  // No entries: per-thread.
  CHECK(chosen(kernelOf(culift::IndexMode::Grid2D, 1), LaunchPlanner::for2D(4096, 4096)) == "per-thread");
}

TEST_CASE("row reductions: 32 rows per block while they fill the device, 8 below", "[plan]") {
  const culift::Function rows = planned(culift::IndexMode::Grid1D);
  auto big = choosePlanEntry(rows, LaunchPlanner::for1D(4096), device132());
  REQUIRE(big);
  CHECK(rows.planEntries[big->entry].kernelName == "k_rows32");
  CHECK(big->plan.grid == Dim3{128, 1, 1});  // 128 blocks: nine in ten multiprocessors or more
  CHECK(chosen(rows, LaunchPlanner::for1D(1024)) == "k_rows8");
  CHECK(chosen(rows, LaunchPlanner::for1D(1)) == "k_rows8");
}

TEST_CASE("an entry's dynamic shared memory goes into its launch, and an entry the device lacks it for is passed over",
          "[plan]") {
  culift::Function rows = planned(culift::IndexMode::Grid1D);
  rows.planEntries[0].sharedBytes = 66560;  // 4 stages of two double rows' and a vector's slices
  DeviceInfo d = device132();
  d.limits.maxSharedPerBlock = 227 * 1024;
  auto big = choosePlanEntry(rows, LaunchPlanner::for1D(4096), d);
  REQUIRE(big);
  CHECK(rows.planEntries[big->entry].kernelName == "k_rows32");
  CHECK(big->plan.sharedBytes == 66560);
  auto small = choosePlanEntry(rows, LaunchPlanner::for1D(1024), d);
  REQUIRE(small);
  CHECK(small->plan.sharedBytes == 0);     // k_rows8: static shared memory only
  d.limits.maxSharedPerBlock = 48 * 1024;  // a device without the opt-in
  CHECK(chosen(rows, LaunchPlanner::for1D(4096), d) == "k_rows8");
}

TEST_CASE("reassociating row reductions: a warp per row, 8 rows per block, any number of rows", "[plan]") {
  culift::Function f = kernelOf(culift::IndexMode::Grid1D, 1);
  f.planEntries = {planEntry("k_warp", culift::LoopPlan::ReassociatingRowReduction, 8, false)};
  auto big = choosePlanEntry(f, LaunchPlanner::for1D(4096), device132());
  REQUIRE(big);
  CHECK(big->plan.grid == Dim3{512, 1, 1});
  CHECK(big->plan.block == Dim3{256, 1, 1});
  CHECK(chosen(f, LaunchPlanner::for1D(1)) == "k_warp");
  CHECK(chosen(f, LaunchPlanner::for1D(9)) == "k_warp");
  // Rows beyond the grid's limit: the entry's loop over rows takes the rest.
  DeviceInfo small = device132();
  small.limits.maxGrid[0] = 100;
  auto capped = choosePlanEntry(f, LaunchPlanner::for1D(70001), small);
  REQUIRE(capped);
  CHECK(capped->plan.grid == Dim3{100, 1, 1});
  LaunchPlan forced = LaunchPlanner::for1D(4096);
  forced.perThread = true;
  CHECK(chosen(f, forced) == "per-thread");
}

TEST_CASE("min/max row reductions: a warp per row, 8 rows per block, any number of rows", "[plan]") {
  culift::Function f = kernelOf(culift::IndexMode::Grid1D, 1);
  culift::PlanEntry e = planEntry("k_extremum", culift::LoopPlan::ExtremumRowReduction, 8, false);
  e.tileCols = 1;
  f.planEntries = {e};
  auto big = choosePlanEntry(f, LaunchPlanner::for1D(4096), device132());
  REQUIRE(big);
  CHECK(big->plan.grid == Dim3{512, 1, 1});
  CHECK(big->plan.block == Dim3{256, 1, 1});
  CHECK(chosen(f, LaunchPlanner::for1D(1)) == "k_extremum");
  CHECK(chosen(f, LaunchPlanner::for1D(70001)) == "k_extremum");
  LaunchPlan forced = LaunchPlanner::for1D(4096);
  forced.perThread = true;
  CHECK(chosen(f, forced) == "per-thread");
}

TEST_CASE("split rows: few rows take blocks per row to fill the device, many take a warp each", "[plan]") {
  culift::Function f = kernelOf(culift::IndexMode::Grid1D, 1);
  culift::PlanEntry split = planEntry("k_split", culift::LoopPlan::SplitRowReduction, 1, false);
  split.tileCols = 256;  // slots per row
  f.planEntries = {split, planEntry("k_warp", culift::LoopPlan::ReassociatingRowReduction, 8, false)};
  // 16 rows: 32 blocks per row (the most: 256 slots over 8 warps), 512 blocks.
  auto few = choosePlanEntry(f, LaunchPlanner::for1D(16), device132());
  REQUIRE(few);
  CHECK(f.planEntries[few->entry].kernelName == "k_split");
  CHECK(few->plan.grid == Dim3{512, 1, 1});
  CHECK(few->plan.block == Dim3{256, 1, 1});
  // 100 rows: the fewest blocks per row (a power of two) that give half the device's 8448 warps.
  auto some = choosePlanEntry(f, LaunchPlanner::for1D(100), device132());
  REQUIRE(some);
  CHECK(some->plan.grid == Dim3{800, 1, 1});  // 8 per row: 6400 warps >= 4224
  // 2048 rows: one block per row already gives 16384 warps.
  auto matvec = choosePlanEntry(f, LaunchPlanner::for1D(2048), device132());
  REQUIRE(matvec);
  CHECK(f.planEntries[matvec->entry].kernelName == "k_split");
  CHECK(matvec->plan.grid == Dim3{2048, 1, 1});
  CHECK(chosen(f, LaunchPlanner::for1D(1)) == "k_split");
  CHECK(chosen(f, LaunchPlanner::for1D(8447)) == "k_split");
  // As many rows as the device has warps (64 per multiprocessor): a warp per row.
  CHECK(chosen(f, LaunchPlanner::for1D(8448)) == "k_warp");
  // A known row length: rows of fewer 4096-iteration chunks than a block's 8 warps take a warp
  // per row; longer ones at most a warp per chunk.
  auto rowsOf = [&](std::int64_t rows, std::int64_t length) {
    return choosePlanEntry(f, LaunchPlanner::for1D(rows), device132(), length);
  };
  CHECK(f.planEntries[rowsOf(4096, 4096)->entry].kernelName == "k_warp");
  CHECK(f.planEntries[rowsOf(16, 7 * 4096)->entry].kernelName == "k_warp");
  CHECK(f.planEntries[rowsOf(2048, 1048576)->entry].kernelName == "k_split");
  CHECK(rowsOf(16, 4194304)->plan.grid == Dim3{512, 1, 1});   // 1024 chunks: 32 blocks per row
  CHECK(rowsOf(16, 16 * 4096)->plan.grid == Dim3{32, 1, 1});  // 16 chunks: 2 blocks of 8 warps
  DeviceInfo small = device132();
  small.multiprocessors = 16;  // 1024 warps
  CHECK(chosen(f, LaunchPlanner::for1D(2048), small) == "k_warp");
  // The grid's limit: fewer blocks per row, or, below one per row, the warp per row (which loops
  // over rows).
  small = device132();
  small.limits.maxGrid[0] = 100;
  auto capped = choosePlanEntry(f, LaunchPlanner::for1D(16), small);
  REQUIRE(capped);
  CHECK(capped->plan.grid == Dim3{64, 1, 1});
  CHECK(chosen(f, LaunchPlanner::for1D(101), small) == "k_warp");
  LaunchPlan forced = LaunchPlanner::for1D(16);
  forced.perThread = true;
  CHECK(chosen(f, forced) == "per-thread");
}

TEST_CASE("stencils: a block per 128 x 32 or 16 x 32 tile in 2-D; in 3-D per tile of (j, k) and slab of 4 planes i",
          "[plan]") {
  culift::Function flat = kernelOf(culift::IndexMode::Grid2D, 1);
  culift::PlanEntry walk = planEntry("k_walk", culift::LoopPlan::Stencil, 128, false);
  culift::PlanEntry walk2 = planEntry("k_walk2", culift::LoopPlan::Stencil, 16, false);
  walk.tileCols = walk2.tileCols = 32;
  flat.planEntries = {walk, walk2};
  auto two = choosePlanEntry(flat, LaunchPlanner::for2D(2048, 2050), device132());
  REQUIRE(two);
  CHECK(two->plan.grid == Dim3{65, 16, 1});  // columns on x: 2050 / 32, rounded up; rows on y: 2048 / 128
  CHECK(two->plan.block == Dim3{256, 1, 1});
  // Too few blocks of 128 rows to fill the device: 16 rows per block.
  CHECK(chosen(flat, LaunchPlanner::for2D(256, 256)) == "k_walk2");
  CHECK(chosen(flat, LaunchPlanner::for2D(1, 1)) == "k_walk2");
  // More tiles of rows than a grid's y can take: per thread.
  CHECK(chosen(flat, LaunchPlanner::for2D(65535 * 16 + 1, 2)) == "k_walk");
  CHECK(chosen(flat, LaunchPlanner::for2D(65535 * 128 + 1, 2)) == "per-thread");

  culift::Function cube = kernelOf(culift::IndexMode::Grid3D, 1);
  culift::PlanEntry walk3 = planEntry("k_walk3d", culift::LoopPlan::Stencil3D, 8, false);
  walk3.tileCols = 32;
  cube.planEntries = {walk3};
  CHECK(walk3.blockMapping() == culift::BlockMapping::Slabs3D);
  auto three = choosePlanEntry(cube, LaunchPlanner::for3D(256, 288, 224), device132());
  REQUIRE(three);
  CHECK(three->plan.grid == Dim3{7, 36, 64});  // k: 224 / 32, j: 288 / 8, i: 256 planes in slabs of 4
  CHECK(three->plan.block == Dim3{256, 1, 1});
  auto thin = choosePlanEntry(cube, LaunchPlanner::for3D(3, 9, 33), device132());
  REQUIRE(thin);
  CHECK(thin->plan.grid == Dim3{2, 2, 1});
  // More slabs than the grid's z allows: fewer, longer slabs (the entry splits i over any grid z).
  DeviceInfo small = device132();
  small.limits.maxGrid[2] = 4;
  auto capped = choosePlanEntry(cube, LaunchPlanner::for3D(256, 64, 64), small);
  REQUIRE(capped);
  CHECK(capped->plan.grid == Dim3{2, 8, 4});
  // A 3-D mapping for a launch of another rank: per thread.
  CHECK(chosen(cube, LaunchPlanner::for2D(64, 64)) == "per-thread");
  // The windows in registers: the same plane of blocks, slabs of 16 planes; a part's planes only.
  culift::PlanEntry win3 = planEntry("k_win3d", culift::LoopPlan::Stencil3DWindows, 8, false);
  win3.tileCols = 32;
  CHECK(win3.blockMapping() == culift::BlockMapping::Slabs3DWindows);
  CHECK(culift::takesParts(win3.blockMapping()));
  cube.planEntries = {win3, walk3};
  auto windows = choosePlanEntry(cube, LaunchPlanner::for3D(256, 288, 224), device132());
  REQUIRE(windows);
  CHECK(cube.planEntries[windows->entry].kernelName == "k_win3d");
  CHECK(windows->plan.grid == Dim3{7, 36, 16});  // i: 256 planes in slabs of 16
  LaunchPlan part = LaunchPlanner::for3D(256, 288, 224);
  part.partFirst = 100 * 288 * 224;
  part.partLast = 133 * 288 * 224;
  auto partGrid = choosePlanEntry(cube, part, device132());
  REQUIRE(partGrid);
  CHECK(partGrid->plan.grid == Dim3{7, 36, 3});  // 33 planes
  // An entry that says how many blocks a multiprocessor holds: the slab of 4 to 32 planes with the
  // fewest waves x planes a block reads (its slab + 2). Four outputs a thread, 2 x 36 blocks a
  // plane, 132 SMs: four blocks an SM take slabs of 8 (5 waves x 10 planes against 3 x 18), three
  // blocks 16 (3 x 18 against 6 x 10); one plane: the shortest slab.
  culift::PlanEntry win4 = planEntry("k_win3d4", culift::LoopPlan::Stencil3DWindows, 8, false);
  win4.tileCols = 128;
  cube.planEntries = {win4, walk3};
  for (const auto& [resident, slabs] : {std::pair{4u, 32u}, std::pair{3u, 16u}, std::pair{0u, 16u}}) {
    INFO(resident << " blocks an SM");
    cube.planEntries[0].blocksPerSm = resident;
    auto quads = choosePlanEntry(cube, LaunchPlanner::for3D(256, 288, 224), device132());
    REQUIRE(quads);
    CHECK(quads->plan.grid == Dim3{2, 36, slabs});
    auto thin = choosePlanEntry(cube, LaunchPlanner::for3D(1, 288, 224), device132());
    REQUIRE(thin);
    CHECK(thin->plan.grid.z == 1u);
  }
  // Eight outputs a thread (16 rows a tile: 2 x 18 blocks a plane) at two blocks an SM: the slab
  // that starts every block in one wave, 7 slabs of 37 planes (252 blocks of 264), against slabs of
  // 8 (5 waves x 10 planes); a plane of blocks beyond one wave keeps the four lengths.
  cube.planEntries[0].tileRows = 16;
  cube.planEntries[0].blocksPerSm = 2;
  auto pairs = choosePlanEntry(cube, LaunchPlanner::for3D(256, 288, 224), device132());
  REQUIRE(pairs);
  CHECK(pairs->plan.grid == Dim3{2, 18, 7});
  auto tall = choosePlanEntry(cube, LaunchPlanner::for3D(64, 4096, 224), device132());
  REQUIRE(tall);
  CHECK(tall->plan.grid == Dim3{2, 256, 2});
  // The same form in narrow tiles (32 x 32 outputs, 128 threads, four blocks an SM) after it: where
  // the wide tiles fill the device they stay, also where their tiles leave columns idle (k = 224:
  // 256 columns of 128-wide tiles against 224 of 32-wide ones).
  culift::PlanEntry narrow = planEntry("k_win3d4n", culift::LoopPlan::Stencil3DWindows, 32, false);
  narrow.tileCols = 32;
  narrow.threads = 128;
  narrow.blocksPerSm = 4;
  cube.planEntries = {cube.planEntries[0], narrow, walk3};
  auto fitted = choosePlanEntry(cube, LaunchPlanner::for3D(256, 288, 224), device132());
  REQUIRE(fitted);
  CHECK(cube.planEntries[fitted->entry].kernelName == "k_win3d4");
  CHECK(fitted->plan.grid == Dim3{2, 18, 7});
  CHECK(fitted->plan.block == Dim3{256, 1, 1});
  for (const std::int64_t nj : {288, 300}) {
    INFO("j extent " << nj);
    auto wide = choosePlanEntry(cube, LaunchPlanner::for3D(256, nj, 256), device132());
    REQUIRE(wide);
    CHECK(cube.planEntries[wide->entry].kernelName == "k_win3d4");
  }
  // A launch whose wide tiles leave the device short (one plane of 2 x 3 blocks): the narrow tiles'
  // more blocks (8 x 2).
  auto few = choosePlanEntry(cube, LaunchPlanner::for3D(1, 40, 256), device132());
  REQUIRE(few);
  CHECK(cube.planEntries[few->entry].kernelName == "k_win3d4n");
  CHECK(few->plan.grid == Dim3{8, 2, 1});
  // Another form of the mapping (one output a thread, no blocks an SM said) is no alternative tile:
  // the first entry that fills the device stays.
  cube.planEntries[1].blocksPerSm = 0;
  auto other = choosePlanEntry(cube, LaunchPlanner::for3D(256, 288, 224), device132());
  REQUIRE(other);
  CHECK(cube.planEntries[other->entry].kernelName == "k_win3d4");
}

TEST_CASE("column reductions: a thread per output, 256 per block while they fill the device, 64 below", "[plan]") {
  using culift::LoopPlan;
  for (const culift::IndexMode mode : {culift::IndexMode::Grid1D, culift::IndexMode::Grid2D}) {
    culift::Function f = kernelOf(mode, 1);
    for (unsigned outputs : {256u, 64u}) {
      culift::PlanEntry e = planEntry("k_cols" + std::to_string(outputs), LoopPlan::ColumnReduction, 1, false);
      e.tileCols = outputs;
      e.threads = outputs;
      f.planEntries.push_back(e);
    }
    const bool twoD = mode == culift::IndexMode::Grid2D;
    auto plan = [&](std::int64_t rows, std::int64_t cols) {
      return twoD ? LaunchPlanner::for2D(rows, cols) : LaunchPlanner::for1D(rows * cols);
    };
    // x.sum(1) of (128, 4096, 4095): 524,160 outputs in row-major order, 2048 blocks of 256
    // (the last one partial), one grid dimension whatever the shape.
    auto big = choosePlanEntry(f, plan(128, 4095), device132());
    REQUIRE(big);
    CHECK(f.planEntries[big->entry].kernelName == "k_cols256");
    CHECK(big->plan.grid == Dim3{2048, 1, 1});
    CHECK(big->plan.block == Dim3{256, 1, 1});
    CHECK(big->plan.extent[0] == (twoD ? 128 : 128 * 4095));
    // A single column of outputs (d2 = 1) packs them too: 40,000 outputs, 157 blocks.
    CHECK(choosePlanEntry(f, plan(40000, 1), device132())->plan.grid == Dim3{157, 1, 1});
    // 118 blocks of 256 leave more than a tenth of 132 multiprocessors idle: 470 of 64.
    auto small = choosePlanEntry(f, plan(30, 1000), device132());
    REQUIRE(small);
    CHECK(f.planEntries[small->entry].kernelName == "k_cols64");
    CHECK(small->plan.grid == Dim3{469, 1, 1});
    CHECK(small->plan.block == Dim3{64, 1, 1});
    CHECK(chosen(f, plan(1, 1)) == "k_cols64");
    // Outputs beyond the grid's limit: the entry's loop over outputs takes the rest.
    DeviceInfo capped = device132();
    capped.limits.maxGrid[0] = 100;
    CHECK(choosePlanEntry(f, plan(1000, 1000), capped)->plan.grid == Dim3{100, 1, 1});
    // Indices that could pass 2^31 - 1: per thread.
    CHECK(chosen(f, plan(65536, 65536)) == "per-thread");
  }
}

TEST_CASE("column reductions shared by a middle axis: a thread per column (i, k), only where columns fill the device",
          "[plan]") {
  using culift::LoopPlan;
  culift::Function f = kernelOf(culift::IndexMode::Grid3D, 1);
  for (unsigned columns : {256u, 64u}) {
    culift::PlanEntry e = planEntry("k_across" + std::to_string(columns), LoopPlan::HoistedColumnReduction, 1, false);
    e.tileCols = columns;
    e.threads = columns;
    f.planEntries.push_back(e);
  }
  CHECK(f.planEntries[0].blockMapping() == culift::BlockMapping::ColumnsAcross);
  // RMS norm over dim 1 of (112, 64, 512 x 512): 112 x 262,144 columns, 114,688 blocks of 256.
  auto rms = choosePlanEntry(f, LaunchPlanner::for3D(112, 64, 262144), device132());
  REQUIRE(rms);
  CHECK(f.planEntries[rms->entry].kernelName == "k_across256");
  CHECK(rms->plan.grid == Dim3{114688, 1, 1});
  CHECK(rms->plan.block == Dim3{256, 1, 1});
  CHECK(rms->plan.extent[1] == 64);  // the middle extent stays the launch's: each thread walks it
  // 9,000 columns (two warps per multiprocessor at least): 36 blocks of 256 leave the device
  // idle, 141 of 64 do not.
  auto few = choosePlanEntry(f, LaunchPlanner::for3D(2, 1000, 4500), device132());
  REQUIRE(few);
  CHECK(f.planEntries[few->entry].kernelName == "k_across64");
  CHECK(few->plan.grid == Dim3{141, 1, 1});
  // Fewer columns than 64 per multiprocessor (8,448): per thread, each output its own loop.
  CHECK(chosen(f, LaunchPlanner::for3D(2, 1000, 4000)) == "per-thread");
  CHECK(chosen(f, LaunchPlanner::for3D(1, 100000, 1)) == "per-thread");
  // Columns beyond the grid's limit: the entry's loop over columns takes the rest.
  DeviceInfo capped = device132();
  capped.limits.maxGrid[0] = 100;
  CHECK(choosePlanEntry(f, LaunchPlanner::for3D(64, 8, 4096), capped)->plan.grid == Dim3{100, 1, 1});
  // Not for a launch of another rank.
  CHECK(chosen(f, LaunchPlanner::for2D(4096, 4096)) == "per-thread");
}

TEST_CASE("batched contractions: a block per tile of (i, j) and batch, the batches beyond grid z by its steps",
          "[plan]") {
  culift::Function f = kernelOf(culift::IndexMode::Grid3D, 1);
  f.planEntries = {planEntry("k_batched128", culift::LoopPlan::BatchedTiledContraction, 128, false),
                   planEntry("k_batched64", culift::LoopPlan::BatchedTiledContraction, 64, false)};
  CHECK(f.planEntries[0].blockMapping() == culift::BlockMapping::BatchedTiles2D);
  // torch.bmm's 128 x (512 x 1024) x (1024 x 2048): j on x (2048 / 128), i on y (512 / 128), batches on z.
  auto bmm = choosePlanEntry(f, LaunchPlanner::for3D(128, 512, 2048), device132());
  REQUIRE(bmm);
  CHECK(f.planEntries[bmm->entry].kernelName == "k_batched128");
  CHECK(bmm->plan.grid == Dim3{16, 4, 128});
  CHECK(bmm->plan.block == Dim3{256, 1, 1});
  CHECK(bmm->plan.extent[0] == 128);
  // One batch of 129 x 200: 2 x 2 tiles of 128 leave the device idle; 4 x 3 of 64 neither, but are the smallest.
  auto one = choosePlanEntry(f, LaunchPlanner::for3D(1, 129, 200), device132());
  REQUIRE(one);
  CHECK(f.planEntries[one->entry].kernelName == "k_batched64");
  CHECK(one->plan.grid == Dim3{4, 3, 1});
  // An odd number of batches: 7 x 2 x 2 blocks of 128 = 28, too few; 7 x 4 x 4 of 64 = 112.
  auto odd = choosePlanEntry(f, LaunchPlanner::for3D(7, 250, 256), device132());
  REQUIRE(odd);
  CHECK(odd->plan.grid == Dim3{4, 4, 7});
  // 33 batches of 256 x 256 give 132 blocks of 128: the large tile.
  CHECK(chosen(f, LaunchPlanner::for3D(33, 256, 256)) == "k_batched128");
  // More batches than the grid's z: the grid's limit, the entry steps by it.
  DeviceInfo small = device132();
  small.limits.maxGrid[2] = 5;
  auto capped = choosePlanEntry(f, LaunchPlanner::for3D(17, 64, 64), small);
  REQUIRE(capped);
  CHECK(capped->plan.grid == Dim3{1, 1, 5});
  // More tiles of rows than the grid's y: per thread. A launch of another rank, or asking for per-thread: per thread.
  CHECK(chosen(f, LaunchPlanner::for3D(1, 65535 * 128 + 1, 2)) == "per-thread");
  CHECK(chosen(f, LaunchPlanner::for2D(64, 64)) == "per-thread");
  LaunchPlan forced = LaunchPlanner::for3D(128, 512, 2048);
  forced.perThread = true;
  CHECK(chosen(f, forced) == "per-thread");
}

TEST_CASE("scans: two warps of 32 rows per block while they fill the device, one below", "[plan]") {
  culift::Function f = kernelOf(culift::IndexMode::Grid1D, 1);
  culift::PlanEntry two = planEntry("k_scan64", culift::LoopPlan::Scan, 64, false);
  culift::PlanEntry one = planEntry("k_scan32", culift::LoopPlan::Scan, 32, false);
  two.tileCols = one.tileCols = 1;
  two.threads = 64;
  one.threads = 32;
  f.planEntries = {two, one};
  auto big = choosePlanEntry(f, LaunchPlanner::for1D(32768), device132());
  REQUIRE(big);
  CHECK(f.planEntries[big->entry].kernelName == "k_scan64");
  CHECK(big->plan.grid == Dim3{512, 1, 1});
  CHECK(big->plan.block == Dim3{64, 1, 1});
  // 64 blocks of 64 rows leave multiprocessors idle; 128 of 32 fill nine in ten.
  auto mid = choosePlanEntry(f, LaunchPlanner::for1D(4096), device132());
  REQUIRE(mid);
  CHECK(f.planEntries[mid->entry].kernelName == "k_scan32");
  CHECK(mid->plan.grid == Dim3{128, 1, 1});
  CHECK(mid->plan.block == Dim3{32, 1, 1});
  CHECK(chosen(f, LaunchPlanner::for1D(1)) == "k_scan32");
  CHECK(chosen(f, LaunchPlanner::for1D(33)) == "k_scan32");
  // Rows beyond the grid's limit: each warp's loop over rows takes the rest.
  DeviceInfo small = device132();
  small.limits.maxGrid[0] = 100;
  auto capped = choosePlanEntry(f, LaunchPlanner::for1D(1 << 20), small);
  REQUIRE(capped);
  CHECK(capped->plan.grid == Dim3{100, 1, 1});
  LaunchPlan forced = LaunchPlanner::for1D(32768);
  forced.perThread = true;
  CHECK(chosen(f, forced) == "per-thread");
}

TEST_CASE("convolutions: a block per tile of channels x positions, the tiles beyond the grid by its steps", "[plan]") {
  culift::Function f = kernelOf(culift::IndexMode::Grid3D, 1);
  culift::PlanEntry large = planEntry("k_conv64x128", culift::LoopPlan::Convolution, 64, false);
  large.tileCols = 128;
  culift::PlanEntry small = planEntry("k_conv32x64", culift::LoopPlan::Convolution, 32, false);
  small.tileCols = 64;
  small.threads = 64;
  f.planEntries = {large, small};
  CHECK(large.blockMapping() == culift::BlockMapping::ConvTiles);
  // KernelBench's conv2d, out (256, 96, 55, 55): positions on x (3025 / 128, rounded up), the
  // 24,576 rows n * K + k on y in tiles of 64.
  auto conv = choosePlanEntry(f, LaunchPlanner::for3D(256 * 96, 55, 55), device132());
  REQUIRE(conv);
  CHECK(f.planEntries[conv->entry].kernelName == "k_conv64x128");
  CHECK(conv->plan.grid == Dim3{24, 384, 1});
  CHECK(conv->plan.block == Dim3{256, 1, 1});
  CHECK(conv->plan.extent[0] == 256 * 96);
  // One image of 96 channels: 24 x 2 blocks of the large tile leave the device idle; 48 x 3 of the small do not.
  auto one = choosePlanEntry(f, LaunchPlanner::for3D(96, 55, 55), device132());
  REQUIRE(one);
  CHECK(f.planEntries[one->entry].kernelName == "k_conv32x64");
  CHECK(one->plan.grid == Dim3{48, 3, 1});
  CHECK(one->plan.block == Dim3{64, 1, 1});
  // Smaller than a tile: one block of the smallest.
  auto tiny = choosePlanEntry(f, LaunchPlanner::for3D(3, 2, 5), device132());
  REQUIRE(tiny);
  CHECK(tiny->plan.grid == Dim3{1, 1, 1});
  CHECK(f.planEntries[tiny->entry].kernelName == "k_conv32x64");
  // More tiles than the grid takes: the grid's limits, the entry steps over the rest.
  DeviceInfo capped = device132();
  capped.limits.maxGrid[1] = 100;
  capped.limits.maxGrid[0] = 10;
  auto steps = choosePlanEntry(f, LaunchPlanner::for3D(256 * 96, 55, 55), capped);
  REQUIRE(steps);
  CHECK(steps->plan.grid == Dim3{10, 100, 1});
  // A launch of another rank, or asking for per-thread: per thread.
  CHECK(chosen(f, LaunchPlanner::for2D(64, 64)) == "per-thread");
  LaunchPlan forced = LaunchPlanner::for3D(96, 55, 55);
  forced.perThread = true;
  CHECK(chosen(f, forced) == "per-thread");
}

// ---- Measured entry choices: the candidates and the table ------------------------------------

TEST_CASE("a launch's candidates: the rules' choice first, then the same mapping's other tiles and slabs",
          "[plan][tuning]") {
  using culift::LoopPlan;
  const culift::Function cells = planned(culift::IndexMode::Grid2D);
  auto names = [&](const culift::Function& f, const std::vector<PlanChoice>& cs) {
    std::vector<std::string> out;
    for (const PlanChoice& c : cs) out.push_back(f.planEntries[c.entry].kernelName);
    return out;
  };
  // A square launch: the mirrored tiles of both sizes, not the plain tiles (another mapping).
  const std::vector<PlanChoice> square = planCandidates(cells, LaunchPlanner::for2D(4096, 4096), device132());
  CHECK(names(cells, square) == std::vector<std::string>{"k_sym128", "k_sym64"});
  REQUIRE(square.size() == 2);
  CHECK(square[1].plan.grid == Dim3{64 * 65 / 2, 1, 1});
  CHECK(square[0].plan.grid == choosePlanEntry(cells, LaunchPlanner::for2D(4096, 4096), device132())->plan.grid);
  // Not square: the plain tiles; at 7 x 129 the rules' choice is the small tile, the large follows.
  CHECK(names(cells, planCandidates(cells, LaunchPlanner::for2D(1000, 4096), device132())) ==
        std::vector<std::string>{"k_tiled128", "k_tiled64"});
  CHECK(names(cells, planCandidates(cells, LaunchPlanner::for2D(7, 129), device132())) ==
        std::vector<std::string>{"k_tiled64", "k_tiled128"});
  // A part of a launch, a per-thread launch: nothing to measure.
  LaunchPlan part = LaunchPlanner::for2D(1000, 4096);
  part.partFirst = 0;
  part.partLast = 500 * 4096;
  CHECK(planCandidates(cells, part, device132()).size() == 1);
  LaunchPlan forced = LaunchPlanner::for2D(1000, 4096);
  forced.perThread = true;
  CHECK(planCandidates(cells, forced, device132()).empty());
  // Reassociating rows and tensor cores: their entries' orders are their own, never measured.
  culift::Function rows = kernelOf(culift::IndexMode::Grid1D, 1);
  rows.planEntries = {planEntry("k_warp32", LoopPlan::ReassociatingRowReduction, 32, false),
                      planEntry("k_warp8", LoopPlan::ReassociatingRowReduction, 8, false)};
  CHECK(planCandidates(rows, LaunchPlanner::for1D(4096), device132()).size() == 1);
  culift::Function tc = kernelOf(culift::IndexMode::Grid2D, 1);
  tc.planEntries = {planEntry("k_tc128", LoopPlan::TensorCoreContraction, 128, false),
                    planEntry("k_tc64", LoopPlan::TensorCoreContraction, 64, false)};
  CHECK(planCandidates(tc, LaunchPlanner::for2D(4096, 4096), device132()).size() == 1);
  // An exact row reduction: both row blocks.
  CHECK(names(planned(culift::IndexMode::Grid1D),
              planCandidates(planned(culift::IndexMode::Grid1D), LaunchPlanner::for1D(4096), device132())) ==
        std::vector<std::string>{"k_rows32", "k_rows8"});
  // An entry the device cannot take (more threads than a block holds) is no candidate.
  culift::Function big = planned(culift::IndexMode::Grid2D);
  big.planEntries[1].threads = 2048;
  CHECK(planCandidates(big, LaunchPlanner::for2D(4096, 4096), device132()).size() == 1);
}

TEST_CASE("a 3-D stencil's candidates: both tiles, each in slabs of every length it weighs", "[plan][tuning]") {
  culift::Function cube = kernelOf(culift::IndexMode::Grid3D, 1);
  culift::PlanEntry wide = planEntry("k_win3d4", culift::LoopPlan::Stencil3DWindows, 16, false);
  wide.tileCols = 128;
  wide.blocksPerSm = 2;
  culift::PlanEntry narrow = planEntry("k_win3d4n", culift::LoopPlan::Stencil3DWindows, 32, false);
  narrow.tileCols = 32;
  narrow.threads = 128;
  narrow.blocksPerSm = 4;
  culift::PlanEntry walk = planEntry("k_walk3d", culift::LoopPlan::Stencil3D, 8, false);
  walk.tileCols = 32;
  cube.planEntries = {wide, narrow, walk};
  const LaunchPlan p = LaunchPlanner::for3D(256, 288, 224);
  const std::vector<PlanChoice> cs = planCandidates(cube, p, device132());
  REQUIRE(!cs.empty());
  // The rules' choice first (the wide tiles in one wave of slabs of 37 planes: grid (2, 18, 7)).
  CHECK(cube.planEntries[cs[0].entry].kernelName == "k_win3d4");
  CHECK(cs[0].plan.grid == Dim3{2, 18, 7});
  std::vector<std::pair<std::string, unsigned>> seen;
  for (const PlanChoice& c : cs) {
    const culift::PlanEntry& e = cube.planEntries[c.entry];
    CHECK(e.kernelName != "k_walk3d");  // another mapping
    CHECK(c.plan.block == Dim3{e.threads, 1, 1});
    CHECK(c.plan.grid.x == (224 + e.tileCols - 1) / e.tileCols);
    CHECK(c.plan.grid.y == (288 + e.tileRows - 1) / e.tileRows);
    seen.push_back({e.kernelName, c.plan.grid.z});
  }
  // Wide tiles (2 x 18 blocks a plane, two an SM: 7 slabs a wave): one wave's slabs with 7, 6 and 5
  // slabs a plane of blocks (37, 43 and 52 planes), and 32, 16, 8, 4 planes (grid z 8, 16, 32, 64);
  // narrow tiles (7 x 9, four an SM: 8 a wave): 32 (one wave's), 37 and 43 planes, and 16, 8 and 4.
  for (const auto& want : std::vector<std::pair<std::string, unsigned>>{{"k_win3d4", 7},
                                                                        {"k_win3d4", 6},
                                                                        {"k_win3d4", 5},
                                                                        {"k_win3d4", 8},
                                                                        {"k_win3d4", 16},
                                                                        {"k_win3d4", 32},
                                                                        {"k_win3d4", 64},
                                                                        {"k_win3d4n", 8},
                                                                        {"k_win3d4n", 7},
                                                                        {"k_win3d4n", 6},
                                                                        {"k_win3d4n", 16},
                                                                        {"k_win3d4n", 32},
                                                                        {"k_win3d4n", 64}})
    CHECK(std::count(seen.begin(), seen.end(), want) == 1);
  CHECK(seen.size() == 13);
  // One plane: every slab is the one grid z; each tile once.
  CHECK(planCandidates(cube, LaunchPlanner::for3D(1, 288, 224), device132()).size() == 2);
}

TEST_CASE("the fastest candidate replaces the rules' choice only by a clear margin", "[plan][tuning]") {
  CHECK(fastestCandidate(std::vector<double>{}) == 0);
  CHECK(fastestCandidate(std::vector<double>{1.0}) == 0);
  CHECK(fastestCandidate(std::vector<double>{1.0, 0.99}) == 0);  // within 2 %
  CHECK(fastestCandidate(std::vector<double>{1.0, 0.97}) == 1);
  CHECK(fastestCandidate(std::vector<double>{1.0, 0.9, 0.8}) == 2);
  CHECK(fastestCandidate(std::vector<double>{1.0, 0.0, 1.5}) == 0);  // 0: not measured
  CHECK(fastestCandidate(std::vector<double>{0.0, 2.0}) == 1);
  CHECK(fastestCandidate(std::vector<double>{1.0, 0.95}, 0.1) == 0);
}

TEST_CASE("the table of measured choices is kept on disk and survives a bad file", "[plan][tuning]") {
  culift::test::TempDir dir("culift-tuning-test");
  DeviceInfo d = device132();
  d.name = "NVIDIA H200 (test)";
  d.computeMajor = 9;
  const std::string path = TuningTable::fileFor(dir.path(), d);
  CHECK(path == dir.path() + "/tuning/NVIDIA_H200__test_-sm90-132.jsonl");
  std::vector<std::string> warned;
  auto warn = [&](const std::string& m) { warned.push_back(m); };
  auto lines = [&] {
    std::ifstream in(path);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) n += !line.empty();
    return n;
  };
  {
    TuningTable t(path, warn);
    CHECK(t.size() == 0);
    CHECK(t.onDisk());
    CHECK_FALSE(t.find("k@1 default 4096x4096 4096"));
    t.store("k@1 default 4096x4096 4096",
            TunedChoice{"k_tiled64",
                        Dim3{64, 64, 1},
                        {{"k_tiled128 grid (32, 32, 1)", 3.25}, {"k_tiled64 grid (64, 64, 1)", 2.5}}});
    t.store("k@1 default 256x288x224", TunedChoice{"k_win3d4", Dim3{2, 18, 7}, {}});
    CHECK(t.size() == 2);
  }
  CHECK(warned.empty());
  CHECK(lines() == 2);  // a line a choice, appended
  {
    TuningTable again(path, warn);  // another engine, another process: the choices read back
    CHECK(again.size() == 2);
    const std::optional<TunedChoice> c = again.find("k@1 default 4096x4096 4096");
    REQUIRE(c);
    CHECK(c->entry == "k_tiled64");
    CHECK(c->grid == Dim3{64, 64, 1});
    REQUIRE(c->times.size() == 2);
    CHECK(c->times[1].label == "k_tiled64 grid (64, 64, 1)");
    CHECK(c->times[1].ms == 2.5);
    CHECK(again.find("k@1 default 256x288x224")->grid == Dim3{2, 18, 7});
    // Two tables of one file (two processes) append side by side; a later line of a key wins.
    TuningTable other(path, warn);
    other.store("k@1 default 8x8", TunedChoice{"k_tiled64", Dim3{1, 1, 1}, {}});
    again.store("k@1 default 256x288x224", TunedChoice{"k_win3d4n", Dim3{7, 9, 8}, {}});
  }
  CHECK(lines() == 4);
  {
    TuningTable merged(path, warn);
    CHECK(merged.size() == 3);
    CHECK(merged.find("k@1 default 256x288x224")->entry == "k_win3d4n");
    CHECK(merged.find("k@1 default 8x8"));
    // Many measurements of few keys: the file is rewritten with a line a key when read.
    for (int r = 0; r < 70; ++r)
      merged.store("k@1 default 8x8", TunedChoice{"k_tiled" + std::to_string(r), Dim3{1, 1, 1}, {}});
  }
  CHECK(lines() == 74);
  CHECK(TuningTable(path, warn).find("k@1 default 8x8")->entry == "k_tiled69");
  CHECK(lines() == 3);
  CHECK(warned.empty());
  // Lines that are no choice (not JSON, a torn line, a bad grid): skipped with a warning, the
  // others kept, and the file rewritten without them.
  {
    std::ofstream(path, std::ios::app) << "{ not json\n"
                                       << R"({"key": "a", "entry": "k", "grid": [0, 1, 1]})"
                                       << "\n"
                                       << R"({"key": "b", "entry": "k", "grid": [1, 2, 3]})"
                                       << "\n"
                                       << R"({"key": "c", "entry": "k", "gr)";
  }
  {
    TuningTable bad(path, warn);
    CHECK(bad.size() == 4);
    CHECK(bad.find("b")->grid == Dim3{1, 2, 3});
    CHECK_FALSE(bad.find("a"));
    REQUIRE(warned.size() == 1);
    CHECK(warned[0].find("3 of 7 lines that are no choice") != std::string::npos);
  }
  CHECK(lines() == 4);
  // A directory that cannot be written: the table stays in memory, with a warning.
  const std::string blocked = dir.file("file-not-dir");
  { std::ofstream(blocked) << "x"; }
  TuningTable memory(blocked + "/tuning/x.jsonl", warn);
  memory.store("k", TunedChoice{"k_tiled64", Dim3{1, 1, 1}, {}});
  CHECK_FALSE(memory.onDisk());
  CHECK(memory.find("k"));
  CHECK(warned.back().find("kept in memory only") != std::string::npos);
  // Launches of a key before: none the first time, which is recorded (not on disk).
  CHECK_FALSE(memory.launchedBefore("k@1 default 64x64"));
  CHECK(memory.launchedBefore("k@1 default 64x64"));
  CHECK_FALSE(memory.launchedBefore("k@1 default 64x65"));
  // No path: memory only, silently.
  TuningTable none;
  none.store("k", TunedChoice{"k_tiled64", Dim3{1, 1, 1}, {}});
  CHECK(none.size() == 1);
  CHECK_FALSE(none.onDisk());
}

TEST_CASE("engines measure entry choices unless the options or $CULIFT_TUNE say not", "[plan][tuning]") {
  EngineOptions o;
  const char* before = std::getenv("CULIFT_TUNE");
  const std::string saved = before ? before : "";
  ::unsetenv("CULIFT_TUNE");
  CHECK(tuneEntries(o));
  for (const char* off : {"0", "off", "false"}) {
    ::setenv("CULIFT_TUNE", off, 1);
    CHECK_FALSE(tuneEntries(o));
  }
  ::setenv("CULIFT_TUNE", "1", 1);
  CHECK(tuneEntries(o));
  o.tuneEntries = false;
  CHECK_FALSE(tuneEntries(o));
  if (before) ::setenv("CULIFT_TUNE", saved.c_str(), 1);
  else ::unsetenv("CULIFT_TUNE");
}
