// What the two contraction plans share (tiled_contraction.cpp, symmetric_tiled_contraction.cpp):
// the register tiles that fit a kernel's loop, and the emitter of a tiled entry.
//
// A tiled entry (2-D): a block computes tileRows x tileCols outputs, each of its 256 threads a
// register tile of them; the operands indexed by (i, k) and (j, k) are copied tile by tile (k in
// steps of 8 or 16, two tiles in flight) into shared memory, and every output runs the loop body
// on values read from there. Under the Triangle mapping the blocks take the tiles on and below
// the diagonal only and store each result twice.
#pragma once

#include <optional>
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
// `deep`: deepPipeline's tiles.
unsigned tileStep(unsigned tile, unsigned widestElement, bool deep = false);
unsigned tileStages(unsigned tile, bool deep = false);
// Whether the exact tiles of `tile` rows (`versioned`: in two forms) take the deep pipeline.
bool deepPipeline(const LoopAnalysis& analysis, unsigned tile, bool versioned);
inline constexpr unsigned kTilePad = 4;
// The padding of a tensor-core entry's staged rows: the fragments' reads (8 rows by 4 k a warp)
// then fall in 32 different banks.
inline constexpr unsigned kTensorCoreTilePad = 8;
// The k a tensor-core entry stages a tile: two mma steps of tf32, one of bf16 or fp16.
inline constexpr unsigned kTensorCoreStep = 16;
// A TF32 contraction's entries on warpgroups (<f>_wg256 and <f>_wg128, wgmma on sm_90a; the mma.sync
// body where compiled for another target): 256 or 128 rows x 128 columns of outputs a block of two
// warpgroups, k 32 a stage in four stages, the row operand's tile k-major with the 128-byte swizzle
// (its stages 1024-byte aligned: the entry's dynamic shared memory is 1 KiB over its stages', the
// alignment's room).
// An entry whose operands go by bulk tensor copies (PlanEntry::tensorMaps) stages the column
// operand in boxes of kWarpgroupBox columns x 32 k, each box's rows of 128 bytes swizzled as the
// row operand's (the layout a bulk tensor copy with the 128-byte swizzle leaves, whichever path
// copies the tile); the others as the mma.sync entries do, rows of 128 + 8 columns.
inline constexpr unsigned kWarpgroupStep = 32, kWarpgroupStages = 4, kWarpgroupCols = 128, kWarpgroupBox = 32;
// The 256-row entry with tensor maps takes a third warpgroup of its own for the copies
// (kWarpgroupThreads + kWarpgroupCopiers threads a block): one of its threads issues the bulk
// tensor copies of every stage and waits for the multiplying warpgroups to free it, the others
// leave at once; the registers move to the multiplying warpgroups (setmaxnreg). The tiles the maps
// do not cover are copied by the multiplying warpgroups' threads after those of the maps.
inline constexpr unsigned kWarpgroupThreads = 256, kWarpgroupCopiers = 128;
// The dynamic shared memory of the entry of `rows` rows: the row operand's stages (`rows` rows of
// k 32, unpadded: the swizzle spreads the banks) and the column operand's (k 32 rows of 128
// columns, boxed, or of 128 + 8), of float (TF32 only), and 1 KiB of room for the alignment.
constexpr unsigned warpgroupSharedBytes(unsigned rows, bool boxed) {
  return kWarpgroupStages * kWarpgroupStep * (rows + kWarpgroupCols + (boxed ? 0 : kTensorCoreTilePad)) * 4 + 1024;
}

// The tiles (outputs a side per block: 128 for 8 x 8 per thread, 64 for 4 x 4), largest first,
// that the values live across the loop and the staged tiles allow; none with `reason` saying why
// (also where a read's index depends on both i and j: LoopAnalysis::bothAxesReason).
std::vector<unsigned> tilesThatFit(const Function& fn, const LoopAnalysis& analysis, std::string& reason);

// The dynamic shared memory of `tile`'s entry (0: static): above 48 KiB its stages are dynamic
// shared memory, at most kPlanSharedBudget.
// (`pad` and `step`: a tensor-core entry's; step 0: tileStep's.)
unsigned tileDynamicShared(const LoopAnalysis& analysis, unsigned tile, unsigned pad = kTilePad, unsigned step = 0);

// A loop that tensor cores can run (tensor_core_contraction.cpp): its body only adds the product of
// the operand of rows i and the operand of columns j to `sum`, a float local.
struct TensorCoreForm {
  VarId sum = kNone;
  unsigned rowOperand = 0, colOperand = 1;  // indices into LoopAnalysis::operands
};
// Whether `index` steps one element along `var` (a literal coefficient of 1 through + and -) and
// reads nothing but parameters and literals (tensor_core_contraction.cpp).
bool unitStepOf(const Function& fn, const Expr& index, VarId var);

// The form, or nothing with `reason` saying why the loop is not one.
std::optional<TensorCoreForm> tensorCoreForm(const Function& fn, const LoopAnalysis& analysis, std::string& reason);

// The entries `<fn>_<prefix><tile>` of `plan` for each of `tiles` (square tiles, 256 threads).
std::vector<PlanEntry> tiledEntries(const Function& fn, const LoopAnalysis& analysis,
                                    const std::vector<unsigned>& tiles, LoopPlan plan, const std::string& prefix,
                                    bool squareOnly);

// Writes tiled entry `entry` of `fn`.
void emitTiledEntry(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out);

}  // namespace culift::codegen
