// What the two contraction plans share (tiled_contraction.cpp, symmetric_tiled_contraction.cpp):
// the register tiles that fit a kernel's loop, and the emitter of a tiled entry.
//
// A tiled entry (2-D): a block computes tileRows x tileCols outputs, each of its 256 threads a
// register tile of them; the operands indexed by (i, k) and (j, k) are copied tile by tile (k in
// steps of 8 or 16, two tiles in flight) into shared memory, and every output runs the loop body
// on values read from there. Under the Triangle mapping the blocks take the tiles on and below
// the diagonal only and store each result twice.
#pragma once

#include <string>
#include <vector>

#include "analysis.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

class CodeWriter;

// For a contraction's tiles of `tile` rows: the k each tile stages (a barrier per tile: smaller
// register tiles take more k per barrier, where elements of at most 4 bytes leave room), the
// stages of its pipeline (one in use, the rest in flight), and the padding of each staged row in
// elements.
unsigned tileStep(unsigned tile, unsigned widestElement);
unsigned tileStages(unsigned tile);
inline constexpr unsigned kTilePad = 4;

// The tiles (outputs a side per block: 128 for 8 x 8 per thread, 64 for 4 x 4), largest first,
// that the values live across the loop and the staged tiles allow; none with `reason` saying why
// (also where a read's index depends on both i and j: LoopAnalysis::bothAxesReason).
std::vector<unsigned> tilesThatFit(const Function& fn, const LoopAnalysis& analysis, std::string& reason);

// The dynamic shared memory of `tile`'s entry (0: static): above 48 KiB its stages are dynamic
// shared memory, at most kPlanSharedBudget.
unsigned tileDynamicShared(const LoopAnalysis& analysis, unsigned tile);

// The entries `<fn>_<prefix><tile>` of `plan` for each of `tiles` (square tiles, 256 threads).
std::vector<PlanEntry> tiledEntries(const Function& fn, const LoopAnalysis& analysis,
                                    const std::vector<unsigned>& tiles, LoopPlan plan, const std::string& prefix,
                                    bool squareOnly);

// Writes tiled entry `entry` of `fn`.
void emitTiledEntry(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out);

}  // namespace culift::codegen
