#include "culift/runtime/kernel.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "backend.hpp"
#include "culift/ast/reassociation.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/tuning.hpp"

namespace culift::rt {

namespace detail {
BackendImpl& backendOf(Engine& engine);
}  // namespace detail

std::optional<LaunchPlan> narrowIndexPlan(const Function& fn, const LaunchPlan& plan,
                                          std::span<const ResolvedArg> args) {
  constexpr std::uint64_t kMax = INT32_MAX;
  const std::uint64_t items = std::max(1u, fn.itemsPerThread);
  if (static_cast<std::uint64_t>(plan.elements()) > kMax) return std::nullopt;
  // Every array as aligned as the entry assumes: fn.arrayAlignment, or for the vectorized
  // element-wise form, one vector of its element type for the element inputs and `out`.
  const bool vectorized = fn.mode == IndexMode::ElementWise && items > 1;
  for (const ResolvedArg& a : args) {
    if (!a.isBuffer) continue;
    std::uint64_t alignment = fn.arrayAlignment;
    if (vectorized && a.param &&
        (a.param->role == ParamRole::PerElementScalar || a.param->role == ParamRole::ResultArray))
      alignment = std::max<std::uint64_t>(alignment, byteSize(a.param->type.scalar) * items);
    if (alignment > 1 && a.buffer.address % alignment != 0) return std::nullopt;
  }
  // Axis a runs on x (the last axis: i of 1-D, j of 2-D, k of 3-D), y (i of 2-D, j of 3-D) or z (i of 3-D).
  // A grid-stride loop's index stays below extent + stride: cap each grid dimension so that
  // fits an int (the loops then take more steps), and on x take no more blocks than the
  // extent needs at `items` indices per thread.
  LaunchPlan fast = plan;
  unsigned* grid[3] = {&fast.grid.x, &fast.grid.y, &fast.grid.z};
  const std::uint64_t block[3] = {plan.block.x, plan.block.y, plan.block.z};
  for (unsigned a = 0; a < plan.rank && a < 3; ++a) {
    const unsigned d = plan.rank == 1 ? 0u : plan.rank == 2 ? (a == 0 ? 1u : 0u) : 2u - a;
    const std::uint64_t extent = static_cast<std::uint64_t>(plan.extent[a]);
    const std::uint64_t perBlock = block[d] * (d == 0 ? items : 1);
    const std::uint64_t room = kMax - extent;  // elements() <= kMax, so extent <= kMax
    if (room < perBlock) return std::nullopt;
    std::uint64_t blocks = std::min<std::uint64_t>(*grid[d], room / perBlock);
    if (d == 0) blocks = std::min(blocks, ((extent + items - 1) / items + block[0] - 1) / block[0]);
    *grid[d] = static_cast<unsigned>(std::max<std::uint64_t>(blocks, 1));
  }
  return fast;
}

namespace {

// The tensor maps an entry takes at most (its operands' bulk tensor copies).
constexpr std::size_t kMaxTensorMaps = 2;

// Planes of i a Slabs3D block walks when the launch has enough of them: few, so that the blocks of
// one plane's neighbourhood run together and share its planes in the cache (measured on an H200:
// 4 planes per slab 2.99 ms for heat-3d 256^3 x 20 steps, 8 to 64 planes 4.1-4.6 ms).
constexpr std::int64_t kSlabPlanes = 4;
// ... and a Slabs3DWindows block: its threads load the halo's planes once per slab, so longer slabs
// load less (the 27-point convolution by hand on an H200: slabs of 16 planes), but fewer blocks
// fill the last wave less. Where the entry says how many blocks a multiprocessor holds, the slab
// is the one of 4 to 32 planes (or, at two blocks an SM, one wave's: below) with the least (waves
// of blocks x planes each block reads, its slab and a halo of 2): measured on an H100 for the
// 27-point convolution 256 x 288 x 224, the streamed entry of one row (4 blocks an SM) ran at
// 75.6 % of copy in slabs of 8 and 68.9 % in slabs of 16, the ring of windows (3 blocks) 70.8 % and
// 74.9 %, as this count says.
constexpr std::int64_t kWindowSlabPlanes = 16;

// The slab lengths a Slabs3DWindows entry weighs: the slab that starts every block in one wave for
// an entry of two blocks an SM, then 32, 16, 8 and 4 planes (ties go to the first). `measuring`: the
// lengths a measured choice times, those and, for any entry, the slabs of one wave with as many
// slabs a plane of blocks as fit, one fewer and two fewer.
std::vector<std::int64_t> windowSlabLengths(const PlanEntry& entry, std::int64_t planes, std::int64_t blocksPerPlane,
                                            std::int64_t sms, bool measuring = false) {
  std::vector<std::int64_t> slabs = {32, 16, 8, 4};
  const std::int64_t resident = static_cast<std::int64_t>(entry.blocksPerSm) * std::max<std::int64_t>(sms, 1);
  if (resident < blocksPerPlane || blocksPerPlane <= 0 || planes <= 0) return slabs;
  // An entry of two blocks an SM (the streamed convolution's eight outputs a thread) may take the
  // slab that starts every block in one wave: on an H100 its slabs of 43 planes (grid z 6) ran at
  // 86.5 % of a copy of the same bytes, of 8 planes at 81.3 %; the entries of four blocks an SM lost
  // with such slabs (74 % against 80 %) and keep the four lengths.
  const std::int64_t slabsInWave = resident / blocksPerPlane, oneWave = measuring ? 3 : entry.blocksPerSm <= 2 ? 1 : 0;
  for (std::int64_t fewer = 0; fewer < oneWave && slabsInWave - fewer >= 1; ++fewer) {
    const std::int64_t p = (planes + slabsInWave - fewer - 1) / (slabsInWave - fewer);
    if (p > 4 && std::find(slabs.begin(), slabs.end(), p) == slabs.end()) slabs.insert(slabs.begin(), p);
  }
  return slabs;
}

std::int64_t windowSlabPlanes(const PlanEntry& entry, std::int64_t planes, std::int64_t blocksPerPlane,
                              std::int64_t sms) {
  if (entry.blocksPerSm == 0 || planes <= 0 || blocksPerPlane <= 0) return kWindowSlabPlanes;
  const std::int64_t resident = static_cast<std::int64_t>(entry.blocksPerSm) * std::max<std::int64_t>(sms, 1);
  std::int64_t best = kWindowSlabPlanes, bestCost = -1;
  for (std::int64_t p : windowSlabLengths(entry, planes, blocksPerPlane, sms)) {  // ties to the longer slab
    const std::int64_t blocks = blocksPerPlane * ((planes + p - 1) / p);
    const std::int64_t cost = (blocks + resident - 1) / resident * (std::min(p, planes) + 2);
    if (bestCost < 0 || cost < bestCost) best = p, bestCost = cost;
  }
  return best;
}

// Columns per multiprocessor a ColumnsAcross entry needs at least (two warps).
constexpr std::int64_t kColumnsAcrossPerSm = 64;

// The grid of `entry` for a launch over `plan`'s extents (rows x cols outputs: the first two), from
// how its blocks map to outputs (never from its plan), with the number of blocks it starts; nothing
// when the device cannot take it.
// `slab`, where positive, is a Slabs3DWindows entry's slab length in place of windowSlabPlanes'.
std::optional<std::pair<Dim3, std::int64_t>> entryGrid(const PlanEntry& entry, const LaunchPlan& plan,
                                                       const DeviceInfo& device, std::optional<std::int64_t> rowLength,
                                                       std::int64_t slab = 0) {
  const GridLimits& limits = device.limits;
  auto blocksAlong = [](std::int64_t n, unsigned tile) { return (n + tile - 1) / tile; };
  auto atLeastOne = [](std::int64_t n) { return static_cast<unsigned>(std::max<std::int64_t>(n, 1)); };
  const std::int64_t rows = plan.extent[0], cols = plan.rank >= 2 ? plan.extent[1] : 1;
  switch (entry.blockMapping()) {
    case BlockMapping::Triangle: {  // the tiles on and below the diagonal, one block each
      const std::int64_t tiles = blocksAlong(rows, entry.tileRows);
      const std::int64_t blocks = tiles * (tiles + 1) / 2;
      if (blocks > limits.maxGrid[0]) return std::nullopt;
      return std::pair{Dim3{atLeastOne(blocks), 1, 1}, blocks};
    }
    case BlockMapping::Tiles2D: {  // columns on x, rows on y
      const std::int64_t bx = blocksAlong(cols, entry.tileCols), by = blocksAlong(rows, entry.tileRows);
      if (bx > limits.maxGrid[0] || by > limits.maxGrid[1]) return std::nullopt;
      return std::pair{Dim3{atLeastOne(bx), atLeastOne(by), 1}, bx * by};
    }
    case BlockMapping::RowBlocks: {  // the entry's loop over rows takes those beyond the grid
      const std::int64_t blocks = std::min<std::int64_t>(blocksAlong(rows, entry.tileRows), limits.maxGrid[0]);
      return std::pair{Dim3{atLeastOne(blocks), 1, 1}, blocks};
    }
    case BlockMapping::SplitRows: {
      // Only for rows too few for a warp each to fill the device (64 warps per multiprocessor);
      // then B blocks per row, the fewest (a power of two, at most the row's slots over the block's
      // warps) that give the device half its warps, fewer where the grid's limit says so.
      const std::int64_t warps = std::max<unsigned>(entry.threads / 32, 1);
      const std::int64_t deviceWarps = 64 * std::max(1, device.multiprocessors);
      if (rows >= deviceWarps) return std::nullopt;
      std::int64_t most = std::max<std::int64_t>(entry.tileCols / warps, 1);
      if (rowLength) {
        // A known row length: a warp per chunk of it at most, and rows of fewer chunks than a
        // block has warps to the warp per row (the same bits; no scratch round trip).
        const std::int64_t chunks = (std::max<std::int64_t>(*rowLength, 0) + kReassociationChunk - 1) /
                                    kReassociationChunk;
        if (chunks < warps) return std::nullopt;
        most = std::min(most, std::max<std::int64_t>(chunks / warps, 1));
      }
      std::int64_t perRow = 1;
      while (perRow < most && rows * perRow * warps < deviceWarps / 2) perRow *= 2;
      while (perRow > 1 && rows * perRow > limits.maxGrid[0]) perRow /= 2;
      if (rows * perRow > limits.maxGrid[0]) return std::nullopt;
      return std::pair{Dim3{atLeastOne(rows * perRow), 1, 1}, rows * perRow};
    }
    case BlockMapping::Slabs3D:
    case BlockMapping::Slabs3DWindows: {  // k on x, j on y, slabs of i on z (the entry splits i over any grid z)
      if (plan.rank != 3) return std::nullopt;
      const std::int64_t bx = blocksAlong(plan.extent[2], entry.tileCols),
                         by = blocksAlong(plan.extent[1], entry.tileRows);
      const std::int64_t planes = entry.blockMapping() != BlockMapping::Slabs3DWindows ? kSlabPlanes
                                  : slab > 0                                           ? slab
                                             : windowSlabPlanes(entry, plan.extent[0], bx * by, device.multiprocessors);
      const std::int64_t bz = std::min<std::int64_t>(blocksAlong(plan.extent[0], planes), limits.maxGrid[2]);
      if (bx > limits.maxGrid[0] || by > limits.maxGrid[1]) return std::nullopt;
      return std::pair{Dim3{atLeastOne(bx), atLeastOne(by), atLeastOne(bz)}, bx * by * bz};
    }
    case BlockMapping::BatchedTiles2D: {  // j on x, i on y, batches on z (the entry steps by the grid's z)
      if (plan.rank != 3 || plan.extent[2] > INT32_MAX - entry.tileCols) return std::nullopt;
      const std::int64_t bx = blocksAlong(plan.extent[2], entry.tileCols),
                         by = blocksAlong(plan.extent[1], entry.tileRows);
      const std::int64_t bz = std::min<std::int64_t>(plan.extent[0], limits.maxGrid[2]);
      if (bx > limits.maxGrid[0] || by > limits.maxGrid[1]) return std::nullopt;
      return std::pair{Dim3{atLeastOne(bx), atLeastOne(by), atLeastOne(bz)}, bx * by * std::max<std::int64_t>(bz, 1)};
    }
    case BlockMapping::ConvTiles: {  // a block per tile of channels x positions; the entry steps by the grid
      if (plan.rank != 3) return std::nullopt;
      const std::int64_t bx = std::min<std::int64_t>(blocksAlong(plan.extent[1] * plan.extent[2], entry.tileCols),
                                                     limits.maxGrid[0]);
      const std::int64_t by = std::min<std::int64_t>(blocksAlong(plan.extent[0], entry.tileRows), limits.maxGrid[1]);
      return std::pair{Dim3{atLeastOne(bx), atLeastOne(by), 1}, bx * by};
    }
    case BlockMapping::Columns: {  // the outputs in row-major order; the entry's loop takes those beyond the grid
      const std::int64_t blocks = std::min<std::int64_t>(blocksAlong(rows * cols, entry.tileCols), limits.maxGrid[0]);
      return std::pair{Dim3{atLeastOne(blocks), 1, 1}, blocks};
    }
    case BlockMapping::ColumnsAcross: {
      // A thread per column (i, k), each running the loop once and what follows it for every j:
      // only where the columns give every multiprocessor two warps at least (fewer columns leave
      // the device idle where the per-thread entry would fill it).
      if (plan.rank != 3) return std::nullopt;
      const std::int64_t columns = plan.extent[0] * plan.extent[2];
      if (columns < kColumnsAcrossPerSm * std::max(1, device.multiprocessors)) return std::nullopt;
      const std::int64_t blocks = std::min<std::int64_t>(blocksAlong(columns, entry.tileCols), limits.maxGrid[0]);
      return std::pair{Dim3{atLeastOne(blocks), 1, 1}, blocks};
    }
    case BlockMapping::Threads: return std::nullopt;  // the per-thread kernels are no plan entry
  }
  return std::nullopt;
}

// The parameter bounding the kernel's first counted loop (`k < n`, `k <= n`), where it is a
// scalar parameter: a split-row kernel's row length, for choosing its entry. Found once per
// kernel (the function's body does not change).
std::optional<VarId> loopBoundParam(const Function& fn) {
  const Stmt* loop = nullptr;
  std::vector<const Stmt*> pending = {fn.body.get()};
  while (!pending.empty() && !loop) {
    const Stmt* s = pending.back();
    pending.pop_back();
    if (!s) continue;
    if (s->kind == StmtKind::For) loop = s;
    for (auto it = s->stmts.rbegin(); it != s->stmts.rend(); ++it) pending.push_back(it->get());
    for (const StmtPtr* c : {&s->otherwise, &s->then, &s->body}) pending.push_back(c->get());
  }
  if (!loop || !loop->cond || loop->cond->kind != ExprKind::Binary ||
      (loop->cond->binaryOp != BinaryOp::Lt && loop->cond->binaryOp != BinaryOp::Le))
    return std::nullopt;
  const Expr* bound = loop->cond->operands[1].get();
  while (bound && bound->kind == ExprKind::Cast && !bound->operands.empty()) bound = bound->operands[0].get();
  if (!bound || bound->kind != ExprKind::VarRef || bound->var >= fn.numParams) return std::nullopt;
  return bound->var;
}

// The launch's value of that parameter.
std::optional<std::int64_t> argumentOf(std::optional<VarId> param, std::span<const ResolvedArg> args) {
  if (!param) return std::nullopt;
  for (const ResolvedArg& a : args)
    if (a.param && !a.isBuffer && a.param->role == ParamRole::Scalar &&
        a.param->userParam == static_cast<int>(*param) && isInteger(a.value.type))
      return isSigned(a.value.type) ? a.value.i : static_cast<std::int64_t>(a.value.u);
  return std::nullopt;
}

// The tensor map of operand `m` of an entry's bulk tensor copies for a launch with `args` (the
// kernel's parameters, resolved): its array read as rows of its stride's elements, as many whole
// rows as the array holds. False where the array or stride allow none (not fp32, a stride that is
// not positive) or the backend encodes none.
bool tensorMapOf(const TensorMapOperand& m, std::span<const ResolvedArg> args, detail::BackendImpl& backend,
                 void* map) {
  const auto array = std::find_if(args.begin(), args.end(), [&](const ResolvedArg& a) {
    return a.isBuffer && a.param && a.param->userParam == static_cast<int>(m.buffer);
  });
  const std::optional<std::int64_t> stride = m.strideParam == kNone ? std::optional(m.stride)
                                                                    : argumentOf(m.strideParam, args);
  if (array == args.end() || !stride || *stride <= 0 || array->buffer.element != Scalar::F32 ||
      array->buffer.recordSize != 0)
    return false;
  const auto cols = static_cast<std::uint64_t>(*stride);
  const std::uint64_t rows = array->buffer.count / cols;
  return rows > 0 && backend.encodeTensorMap(map, array->buffer.address, rows, cols, cols * 4, m.boxCols, m.boxRows);
}

// Whether `b` is `a`'s form in tiles of another shape: a 3-D stencil's windows entries of as many
// outputs a thread and as many threads a multiprocessor (<f>_win3d4's 16 x 128 tiles of 256 threads
// and <f>_win3d4n's 32 x 32 of 128).
bool sameFormOtherTile(const PlanEntry& a, const PlanEntry& b) {
  if (a.blockMapping() != BlockMapping::Slabs3DWindows || b.blockMapping() != BlockMapping::Slabs3DWindows)
    return false;
  if (a.threads == 0 || b.threads == 0 || a.blocksPerSm == 0 || b.blocksPerSm == 0) return false;
  return std::int64_t{a.tileRows} * a.tileCols * b.threads == std::int64_t{b.tileRows} * b.tileCols * a.threads &&
         a.threads * a.blocksPerSm == b.threads * b.blocksPerSm;
}

// Whether the device can run `entry` over rows x cols outputs: its indices, threads and shared
// memory within the device's limits, warpgroup entries on sm_90 only.
bool deviceTakes(const PlanEntry& entry, std::int64_t rows, std::int64_t cols, const DeviceInfo& device) {
  constexpr std::int64_t kMax = INT32_MAX;
  const GridLimits& limits = device.limits;
  if (rows > kMax - entry.tileRows || cols > kMax - entry.tileCols) return false;
  if (entry.threads > limits.maxThreadsPerBlock || entry.threads > limits.maxBlock[0]) return false;
  if (entry.sharedBytes > limits.maxSharedPerBlock) return false;  // more shared memory than the device gives
  return !onWarpgroups(entry) || device.arch() == 90;              // wgmma is sm_90a's
}

// Whether every entry of plan `p` computes each output by the per-thread entry's operations in its
// order (under strict math, its bits), so that a launch may take any of them.
bool exactEntries(LoopPlan p) {
  switch (p) {
    case LoopPlan::ColumnReduction:
    case LoopPlan::HoistedColumnReduction:
    case LoopPlan::ExtremumRowReduction:
    case LoopPlan::RowReduction:
    case LoopPlan::SymmetricTiledContraction:
    case LoopPlan::TiledContraction:
    case LoopPlan::BatchedTiledContraction:
    case LoopPlan::Convolution:
    case LoopPlan::Stencil:
    case LoopPlan::Stencil3DWindows:
    case LoopPlan::Stencil3D:
    case LoopPlan::Scan: return true;
    // Per thread: no entry. Reassociating rows: the order is the entries' own but which of them
    // runs decides the CPU backend's order too. Tensor cores: each entry's units add in their order.
    case LoopPlan::PerThread:
    case LoopPlan::SplitRowReduction:
    case LoopPlan::ReassociatingRowReduction:
    case LoopPlan::TensorCoreContraction:
    case LoopPlan::BatchedTensorCoreContraction: return false;
  }
  return false;
}

}  // namespace

std::optional<std::pair<std::int64_t, std::int64_t>> partRows(const LaunchPlan& plan) {
  const std::int64_t elements = plan.elements();
  if (plan.extent[0] <= 0 || plan.partFirst < 0 || plan.partEnd() > elements || plan.partFirst > plan.partEnd())
    return std::nullopt;
  const std::int64_t row = elements / plan.extent[0];  // outputs per index of axis 0
  if (row == 0 || plan.partFirst % row != 0 || plan.partEnd() % row != 0) return std::nullopt;
  return std::pair{plan.partFirst / row, plan.partEnd() / row};
}

std::optional<PlanChoice> choosePlanEntry(const Function& fn, const LaunchPlan& plan, const DeviceInfo& device,
                                          std::optional<std::int64_t> rowLength) {
  if (plan.perThread || plan.wideIndices || fn.planEntries.empty()) return std::nullopt;
  constexpr std::int64_t kMax = INT32_MAX;
  if (plan.elements() > kMax) return std::nullopt;
  // A part of a launch: whole rows only (indices of axis 0), for the entries that take parts, their
  // grid over the part's rows.
  const std::optional<std::pair<std::int64_t, std::int64_t>> part = partRows(plan);
  if (!plan.whole() && !part) return std::nullopt;
  if (plan.partTriangle && (!part || plan.rank != 2 || plan.extent[0] != plan.extent[1])) return std::nullopt;
  LaunchPlan sized = plan;
  if (!plan.whole()) {
    sized.extent[0] = part->second - part->first;
    sized.partFirst = 0;
    sized.partLast = -1;
  }
  const std::int64_t rows = sized.extent[0], cols = plan.rank >= 2 ? plan.extent[1] : 1;
  const GridLimits& limits = device.limits;
  const std::int64_t sms = std::max(1, device.multiprocessors);
  std::optional<PlanChoice> chosen;
  bool chosenFills = false;  // the chosen entry's blocks fill the device (nine in ten multiprocessors at least)
  std::int64_t chosenBlocks = 0;
  for (std::size_t e = 0; e < fn.planEntries.size(); ++e) {
    const PlanEntry& entry = fn.planEntries[e];
    // Entries come fastest first and the tiles of each mapping largest first: once an entry fits,
    // only the smaller tiles of its mapping remain to consider, and once it fills the device none.
    if (chosen && (chosenFills || fn.planEntries[chosen->entry].blockMapping() != entry.blockMapping())) break;
    std::optional<std::pair<Dim3, std::int64_t>> band;
    if (plan.partTriangle) {
      // A band of the triangle: its tile rows' tiles on and below the diagonal, a block each.
      if (entry.blockMapping() != BlockMapping::Triangle) continue;
      const std::int64_t n = plan.extent[0], tile = entry.tileRows;
      if (part->first % tile != 0 || (part->second % tile != 0 && part->second != n)) continue;
      const std::int64_t b0 = part->first / tile, b1 = (part->second + tile - 1) / tile;
      const std::int64_t blocks = b1 * (b1 + 1) / 2 - b0 * (b0 + 1) / 2;
      if (blocks > limits.maxGrid[0]) continue;
      band = std::pair{Dim3{static_cast<unsigned>(std::max<std::int64_t>(blocks, 1)), 1, 1}, blocks};
    } else {
      if (!plan.whole() && !takesParts(entry.blockMapping())) continue;
      if (entry.squareOnly && rows != cols) continue;
    }
    if (!deviceTakes(entry, rows, cols, device)) continue;
    const std::optional<std::pair<Dim3, std::int64_t>> grid = band ? band : entryGrid(entry, sized, device, rowLength);
    if (!grid) continue;
    LaunchPlan p = plan;
    p.block = {entry.threads, 1, 1};
    p.grid = grid->first;
    p.sharedBytes = entry.sharedBytes;
    const bool fills = grid->second * 10 >= sms * 9;
    if (chosen && sameFormOtherTile(fn.planEntries[chosen->entry], entry)) {
      // The same form in tiles of another shape (a stencil's narrow tiles): taken where it gives
      // more blocks to a device the chosen one leaves short. Where both fill it the first stays:
      // measured on an H100 for the 27-point convolution 256 x 288 x 224, the wide tiles in one
      // wave of slabs ran 0.0605 ms, the narrow ones (whose tiles leave 32 of 256 columns idle the
      // wide tiles do not) 0.0634-0.0659 in every slab length.
      if (!chosenFills && grid->second > chosenBlocks)
        chosen = PlanChoice{e, p}, chosenFills = fills, chosenBlocks = grid->second;
      continue;
    }
    // Move on to a smaller tile of the same mapping while this one leaves more than a tenth of the
    // multiprocessors without a block (one that fills the device ends the search above).
    chosen = PlanChoice{e, p};
    chosenFills = fills;
    chosenBlocks = grid->second;
  }
  return chosen;
}

std::vector<PlanChoice> planCandidates(const Function& fn, const LaunchPlan& plan, const DeviceInfo& device,
                                       std::optional<std::int64_t> rowLength) {
  std::vector<PlanChoice> out;
  const std::optional<PlanChoice> first = choosePlanEntry(fn, plan, device, rowLength);
  if (!first) return out;
  out.push_back(*first);
  const PlanEntry& chosen = fn.planEntries[first->entry];
  if (!plan.whole() || plan.partTriangle || !exactEntries(chosen.plan)) return out;
  const std::int64_t rows = plan.extent[0], cols = plan.rank >= 2 ? plan.extent[1] : 1;
  for (std::size_t e = 0; e < fn.planEntries.size(); ++e) {
    const PlanEntry& entry = fn.planEntries[e];
    if (entry.blockMapping() != chosen.blockMapping() || !exactEntries(entry.plan)) continue;
    if ((entry.squareOnly && rows != cols) || !deviceTakes(entry, rows, cols, device)) continue;
    std::vector<std::int64_t> slabs = {0};  // 0: the grid entryGrid computes
    if (entry.blockMapping() == BlockMapping::Slabs3DWindows && entry.blocksPerSm > 0) {
      const std::int64_t perPlane = ((plan.extent[2] + entry.tileCols - 1) / entry.tileCols) *
                                    ((plan.extent[1] + entry.tileRows - 1) / entry.tileRows);
      for (std::int64_t p : windowSlabLengths(entry, plan.extent[0], perPlane, device.multiprocessors, true))
        slabs.push_back(p);
    }
    for (std::int64_t slab : slabs) {
      const std::optional<std::pair<Dim3, std::int64_t>> grid = entryGrid(entry, plan, device, rowLength, slab);
      if (!grid) continue;
      PlanChoice c{e, plan};
      c.plan.block = {entry.threads, 1, 1};
      c.plan.grid = grid->first;
      c.plan.sharedBytes = entry.sharedBytes;
      const bool seen = std::any_of(out.begin(), out.end(), [&](const PlanChoice& o) {
        return o.entry == c.entry && o.plan.grid == c.plan.grid;
      });
      if (!seen) out.push_back(c);
    }
  }
  return out;
}

struct Kernel::Entries {
  Entries(const Function& fn, detail::BackendImpl& b)
      : count(2 + 2 * fn.planEntries.size()), handles(new std::atomic<void*>[count]), backend(b) {
    for (std::size_t k = 0; k < count; ++k) handles[k].store(nullptr, std::memory_order_relaxed);
    if (std::any_of(fn.planEntries.begin(), fn.planEntries.end(),
                    [](const PlanEntry& e) { return e.blockMapping() == BlockMapping::SplitRows; }))
      rowLengthParam = loopBoundParam(fn);
  }
  ~Entries() {
    if (scratch.empty()) return;
    // Its launches may still run: the whole device (a stream may be gone by now) before the free.
    try {
      backend.synchronize(nullptr);
    } catch (...) {  // a failed launch's error is reported where it is synchronized
    }
    for (auto& [stream, s] : scratch) backend.release(s.address);
  }
  Entries(const Entries&) = delete;
  Entries& operator=(const Entries&) = delete;

  // The scratch of a split-row entry (BlockMapping::SplitRows) for a launch on `stream`: at least
  // `bytes`, its tickets zero. One buffer per stream, kept between launches (the entry leaves its
  // tickets at zero and writes every slot it reads), so launches on one stream reuse it in their
  // order and launches on two streams never share one; a larger need waits for the stream's work
  // and replaces it.
  std::uint64_t scratchFor(void* stream, std::size_t bytes) {
    std::lock_guard lock(scratchMutex);
    Scratch& s = scratch[stream];
    if (s.bytes >= bytes) return s.address;
    if (s.address) {
      backend.synchronize(stream);
      backend.release(s.address);
      s = {};
    }
    s.address = backend.allocate(bytes);  // zero-filled
    s.bytes = bytes;
    return s.address;
  }

  std::size_t count;
  std::unique_ptr<std::atomic<void*>[]> handles;
  std::optional<VarId> rowLengthParam;  // a split-row kernel's loop bound
  detail::BackendImpl& backend;
  struct Scratch {
    std::uint64_t address = 0;
    std::size_t bytes = 0;
  };
  std::mutex scratchMutex;
  std::map<void*, Scratch> scratch;

  void remember(const LaunchPlan& plan, const std::optional<PlanChoice>& choice, bool measured) {
    std::lock_guard lock(lastMutex);
    last = EntryLaunch{plan, choice, measured};
  }
  // The decision of the latest launch that measured or had nothing to measure, for its plan and
  // integer arguments.
  bool recall(const LaunchPlan& plan, const std::vector<std::int64_t>& integers, std::optional<PlanChoice>* choice,
              bool* measured) {
    std::lock_guard lock(lastMutex);
    if (!decision || decision->plan != plan || decidedIntegers != integers) return false;
    *choice = decision->choice;
    *measured = decision->measured;
    return true;
  }
  void decided(const LaunchPlan& plan, std::vector<std::int64_t> integers, const std::optional<PlanChoice>& choice,
               bool measured) {
    std::lock_guard lock(lastMutex);
    decision = EntryLaunch{plan, choice, measured};
    decidedIntegers = std::move(integers);
  }
  std::mutex lastMutex;
  std::optional<EntryLaunch> last, decision;
  std::vector<std::int64_t> decidedIntegers;
};

Kernel::Kernel(std::shared_ptr<Engine> engine, std::shared_ptr<const Module> module, const Function* function,
               void* handle)
    : engine_(std::move(engine)), module_(std::move(module)), function_(function), handle_(handle) {
  // The CPU backend runs the function itself, whatever the entry: its loop plan changes nothing there.
  if (engine_->backend() == Backend::Gpu) entries_ = std::make_shared<Entries>(*function_, detail::backendOf(*engine_));
}

void* Kernel::entry(std::size_t slot, const std::string& name, const std::string& unit) const {
  std::atomic<void*>& cached = entries_->handles[slot];
  if (void* h = cached.load(std::memory_order_acquire)) return h;
  // Two threads may look it up at once: the backend returns the same handle to both.
  void* h = detail::backendOf(*engine_).function(module_, *function_, name, unit);
  cached.store(h, std::memory_order_release);
  return h;
}

void Kernel::launchEntry(const PlanChoice& choice, const LaunchPlan& plan, std::vector<ResolvedArg> resolved,
                         void* stream) const {
  detail::BackendImpl& backend = detail::backendOf(*engine_);
  const PlanEntry& e = function_->planEntries.at(choice.entry);
  void* h = entry(1 + choice.entry, e.kernelName);
  // The entry's parameters after the kernel's: the first row (culift_first; a part's rows end
  // where axis 0's extent says), then a split-row entry's scratch (culift/ast/reassociation.hpp).
  ResolvedArg first;
  first.value = ScalarValue::of(static_cast<long long>(0));
  if (!plan.whole()) {
    const auto [from, to] = *partRows(plan);
    first.value = ScalarValue::of(static_cast<long long>(from));
    for (ResolvedArg& a : resolved)
      if (a.param && a.param->role == ParamRole::Extent && a.param->axis == 0)
        a.value = ScalarValue::of(static_cast<long long>(to));
  }
  resolved.push_back(first);
  if (e.blockMapping() == BlockMapping::Slabs3DWindows) {
    // The element count of every array, in the kernel's parameter order: bounds of the halo's loads.
    const std::size_t params = resolved.size() - 1;
    for (std::size_t k = 0; k < params; ++k) {
      if (!resolved[k].isBuffer) continue;
      ResolvedArg count;
      count.value = ScalarValue::of(static_cast<long long>(resolved[k].buffer.count));
      resolved.push_back(count);
    }
  }
  // An entry's bulk tensor copies: a tensor map per operand (zeros where the matrix allows none,
  // which the entry then copies without), then the mask of the maps that hold.
  struct alignas(64) TensorMap {
    std::uint64_t bits[16] = {};
  };
  std::array<TensorMap, kMaxTensorMaps> maps{};
  if (!e.tensorMaps.empty()) {
    if (e.tensorMaps.size() > maps.size())
      throw ArgumentError(name() + ": entry " + e.kernelName + " takes " + std::to_string(e.tensorMaps.size()) +
                          " tensor maps; the runtime passes " + std::to_string(maps.size()) + " at most");
    const std::size_t params = resolved.size() - 1;
    int mask = 0;
    for (std::size_t m = 0; m < e.tensorMaps.size(); ++m) {
      if (tensorMapOf(e.tensorMaps[m], std::span(resolved).first(params), backend, &maps[m])) mask |= 1 << m;
      ResolvedArg map;
      map.bytes = &maps[m];
      resolved.push_back(map);
    }
    ResolvedArg held;
    held.value = ScalarValue::of(mask);
    resolved.push_back(held);
  }
  if (e.blockMapping() == BlockMapping::SplitRows) {
    const auto sums = static_cast<std::int64_t>(function_->reassociatedSums.size());
    ResolvedArg scratch;
    scratch.isBuffer = true;
    scratch.buffer.address = entries_->scratchFor(stream, static_cast<std::size_t>(
                                                              splitScratchBytes(choice.plan.extent[0], sums)));
    resolved.push_back(scratch);
  }
  backend.launch(*function_, h, choice.plan, resolved, stream);
  // The blocks the entry left: its edge kernel, over the same grid (disjoint outputs).
  if (e.edgeKernel)
    backend.launch(*function_, entry(1 + function_->planEntries.size() + choice.entry, edgeKernelName(e), e.kernelName),
                   choice.plan, resolved, stream, true);
}

namespace {

// Launches timed per candidate after one untimed (which loads its code), and the time past which a
// candidate's launch is not repeated nor the others tried: the runtime's choice stands.
constexpr int kTimedLaunches = 3;
constexpr double kLongestMeasuredMs = 50;
constexpr double kMeasuringBudgetMs = 250;

// Whether a launch's candidates can be timed on its own arguments: its results redirected to
// scratch, no other array written (a kernel writing its arguments would see them written again).
bool measurable(const std::vector<ResolvedArg>& resolved) {
  bool results = false;
  for (const ResolvedArg& a : resolved) {
    if (!a.isBuffer || !a.param) continue;
    if (a.param->role == ParamRole::WritableArray) return false;
    results |= a.param->role == ParamRole::ResultArray;
  }
  return results;
}

// A launch's integer scalar arguments, in order (unsigned ones as their bits).
std::vector<std::int64_t> integerArguments(std::span<const ResolvedArg> resolved) {
  std::vector<std::int64_t> out;
  for (const ResolvedArg& a : resolved)
    if (!a.isBuffer && a.param && a.param->role == ParamRole::Scalar && isInteger(a.value.type))
      out.push_back(isSigned(a.value.type) ? a.value.i : static_cast<std::int64_t>(a.value.u));
  return out;
}

std::string choiceLabel(const Function& fn, const PlanChoice& c) {
  return fn.planEntries[c.entry].kernelName + " grid (" + std::to_string(c.plan.grid.x) + ", " +
         std::to_string(c.plan.grid.y) + ", " + std::to_string(c.plan.grid.z) + ")";
}

}  // namespace

PlanChoice Kernel::tunedChoice(std::span<const PlanChoice> candidates, const LaunchPlan& plan,
                               const std::vector<ResolvedArg>& resolved, std::span<const std::int64_t> integers,
                               void* stream, bool* measured) const {
  detail::BackendImpl& backend = detail::backendOf(*engine_);
  TuningTable& table = *backend.tuning();
  // The key: the kernel (its name and module source), the engine's math, the launch's extents and
  // its integer arguments (trip counts, strides); not its floating-point ones.
  std::string key = function_->name + "@" + backend.moduleDigest(module_) + " " +
                    std::string(rt::name(engine_->options().math)) + " ";
  for (unsigned a = 0; a < plan.rank; ++a) key += (a ? "x" : "") + std::to_string(plan.extent[a]);
  for (std::int64_t v : integers) key += " " + std::to_string(v);
  if (std::optional<TunedChoice> t = table.find(key)) {
    for (const PlanChoice& c : candidates)
      if (function_->planEntries[c.entry].kernelName == t->entry && c.plan.grid == t->grid) {
        *measured = true;
        return c;
      }
    // Not among this launch's candidates (another build of the module): timed again.
  }
  if (!measurable(resolved)) return candidates[0];
  // A shape's first launch runs the rules' choice untimed: a kernel launched once at a shape should
  // not pay for timing its candidates. The launch after it at that shape measures.
  if (!table.launchedBefore(key) || backend.capturing(stream)) return candidates[0];

  // The results to scratch, the candidates timed on the launch's stream (after its earlier work).
  std::vector<ResolvedArg> args = resolved;
  struct Held {
    detail::BackendImpl& backend;
    void* stream;
    std::vector<std::uint64_t> buffers;
    void* events[2] = {nullptr, nullptr};
    ~Held() {
      try {
        backend.synchronize(stream);
      } catch (...) {  // a failed launch's error is reported where it is synchronized
      }
      for (std::uint64_t b : buffers) backend.release(b);
      for (void* e : events)
        if (e) backend.destroyEvent(e);
    }
  } held{backend, stream, {}, {}};
  for (ResolvedArg& a : args) {
    if (!a.isBuffer || !a.param || a.param->role != ParamRole::ResultArray) continue;
    const std::size_t element = a.buffer.recordSize ? a.buffer.recordSize : byteSize(a.buffer.element);
    a.buffer.address = backend.allocate(std::max<std::size_t>(a.buffer.count * element, 1));
    held.buffers.push_back(a.buffer.address);
  }
  held.events[0] = backend.createEvent();
  held.events[1] = backend.createEvent();
  std::vector<double> ms(candidates.size(), 0.0);
  double spent = 0;
  for (std::size_t c = 0; c < candidates.size() && spent < kMeasuringBudgetMs; ++c) {
    launchEntry(candidates[c], plan, args, stream);
    for (int r = 0; r < kTimedLaunches; ++r) {
      backend.recordEvent(held.events[0], stream);
      launchEntry(candidates[c], plan, args, stream);
      backend.recordEvent(held.events[1], stream);
      const double t = backend.elapsedMs(held.events[0], held.events[1]);
      ms[c] = r == 0 ? t : std::min(ms[c], t);
      spent += (r == 0 ? 2 : 1) * t;
      if (t > kLongestMeasuredMs) break;
    }
    if (c == 0 && ms[0] > kLongestMeasuredMs) break;
  }
  const std::size_t pick = fastestCandidate(ms);
  TunedChoice t{function_->planEntries[candidates[pick].entry].kernelName, candidates[pick].plan.grid, {}};
  for (std::size_t c = 0; c < candidates.size(); ++c)
    if (ms[c] > 0) t.times.push_back({choiceLabel(*function_, candidates[c]), ms[c]});
  table.store(key, std::move(t));
  *measured = true;
  return candidates[pick];
}

std::optional<EntryLaunch> Kernel::lastLaunch() const {
  if (!entries_) return std::nullopt;
  std::lock_guard lock(entries_->lastMutex);
  return entries_->last;
}

void Kernel::launchArgs(const LaunchTarget& target, const LaunchPlan& plan, std::span<const LaunchArg> args) const {
  if (target.engine != engine_.get())
    throw ArgumentError(name() + ": launched on another engine than the one it was loaded on");
  // Every check before the backend sees anything.
  std::vector<ResolvedArg> resolved = resolveLaunchArguments(*function_, plan, args, engine_.get());
  if (plan.partFirst < 0 || plan.partFirst > plan.partEnd() || plan.partEnd() > plan.elements())
    throw ArgumentError(name() + ": the part [" + std::to_string(plan.partFirst) + ", " +
                        std::to_string(plan.partLast) + ") is not a range of the launch's " +
                        std::to_string(plan.elements()) + " outputs");
  if (plan.empty()) return;  // nothing to cover: no launch (a zero grid is an error to CUDA)
  detail::BackendImpl& backend = detail::backendOf(*engine_);
  if (plan.partTriangle && !entries_)
    throw ArgumentError(name() + ": a band of a symmetric kernel's triangle runs on a GPU only (its mirrored tiles)");
  if (!entries_) {  // the CPU backend: one program for every launch
    backend.launch(*function_, handle_, plan, resolved, target.stream);
    return;
  }
  if (!plan.whole() && plan.partFirst == plan.partEnd()) return;  // an empty part
  if (function_->planEntries.empty()) {
    entries_->remember(plan, std::nullopt, false);
  } else {
    const std::optional<std::int64_t> rowLength = argumentOf(entries_->rowLengthParam, resolved);
    std::optional<PlanChoice> choice;
    bool measured = false;
    if (backend.tuning()) {
      // The launch before with the same plan and integer arguments decided already (no key, no
      // table: a launch's host time stays the runtime's rules').
      std::vector<std::int64_t> integers = integerArguments(resolved);
      if (!entries_->recall(plan, integers, &choice, &measured)) {
        std::vector<PlanChoice> candidates = planCandidates(*function_, plan, engine_->device(), rowLength);
        // An engine compiling kernel by kernel times only the rules' entry in its other grids:
        // another entry would be compiled for the timing alone.
        if (engine_->options().compileEachEntry && !candidates.empty()) {
          const std::size_t rules = candidates[0].entry;
          std::erase_if(candidates, [rules](const PlanChoice& c) { return c.entry != rules; });
        }
        if (!candidates.empty()) choice = candidates[0];
        if (candidates.size() > 1) choice = tunedChoice(candidates, plan, resolved, integers, target.stream, &measured);
        if (candidates.size() <= 1 || measured) entries_->decided(plan, std::move(integers), choice, measured);
      }
    } else {
      choice = choosePlanEntry(*function_, plan, engine_->device(), rowLength);
    }
    entries_->remember(plan, choice, measured);
    if (choice) {
      launchEntry(*choice, plan, std::move(resolved), target.stream);
      return;
    }
  }
  if (plan.partTriangle)
    throw ArgumentError(name() + ": no mirrored tiles of this kernel take the outputs [" +
                        std::to_string(plan.partFirst) + ", " + std::to_string(plan.partEnd()) +
                        ") as a band of the triangle (it needs a symmetric kernel, a square launch, whole rows and "
                        "the band's first row a tile's)");
  if (!plan.whole()) {
    // A part no entry takes: the part wrapper, one output per thread and step over a 1-D grid.
    const std::string part = function_->partKernelName();
    if (part.empty())
      throw ArgumentError(name() + ": a module built by hand has no entry for a part of a launch; launch it whole");
    const std::int64_t first = plan.partFirst, last = plan.partEnd(), count = last - first;
    // The wrapper's grid-stride loop takes any grid: a 1-D one over the part's outputs.
    const LaunchPlan shape = LaunchPlanner::for1D(count, 256, engine_->device().limits);
    LaunchPlan p = plan;
    p.block = shape.block;
    p.grid = shape.grid;
    p.sharedBytes = 0;
    ResolvedArg from, to;
    from.value = ScalarValue::of(static_cast<long long>(first));
    to.value = ScalarValue::of(static_cast<long long>(last));
    resolved.push_back(from);
    resolved.push_back(to);
    backend.launch(*function_, entry(entries_->count - 1, part), p, resolved, target.stream);
    return;
  }
  if (function_->wideKernelName.empty()) {  // a module built by hand: one kernel for every launch
    backend.launch(*function_, handle_, plan, resolved, target.stream);
    return;
  }
  if (!plan.wideIndices) {
    if (std::optional<LaunchPlan> fast = narrowIndexPlan(*function_, plan, resolved)) {
      backend.launch(*function_, handle_, *fast, resolved, target.stream);
      return;
    }
  }
  backend.launch(*function_, entry(0, function_->wideKernelName), plan, resolved, target.stream);
}

unsigned Kernel::suggestedBlockSize() const { return detail::backendOf(*engine_).suggestedBlockSize(handle_); }

LaunchPlan Kernel::plan(std::int64_t ni, std::int64_t nj, std::int64_t nk) const {
  const std::int64_t extent[3] = {ni, nj, nk};
  return LaunchPlanner::forThreads(rank(), extent, suggestedBlockSize(), engine_->device().limits);
}

}  // namespace culift::rt
