// The entries a loop plan adds to a kernel (Function::planEntries): tiled contractions for 2-D
// kernels, staged row reductions for 1-D ones. Each runs the user's statements once per output
// in source order, so it gives the per-thread entry's bits; a reassociating row reduction (a
// warp per output) adds in the documented order the interpreter's launches reproduce.
#pragma once

#include <string_view>
#include <vector>

#include "code_writer.hpp"
#include "culift/ast/module.hpp"
#include "loop_plan.hpp"

namespace culift::codegen {

// Writes every entry of fn.planEntries. Throws std::logic_error when the plan no longer holds
// for the function (a planner bug).
void emitPlanEntries(const Module& module, const Function& fn, CodeWriter& out);

// For a contraction's tiles of `tile` rows: the k each tile stages (a barrier per tile: smaller
// register tiles take more k per barrier, where elements of at most 4 bytes leave room), the stages of its pipeline
// (one in use, the rest in flight), and the padding of each staged row in elements.
unsigned tileStep(unsigned tile, unsigned widestElement);
unsigned tileStages(unsigned tile);
inline constexpr unsigned kTilePad = 4;

// Bytes of one row a row reduction stages per step with `rows` rows per block (fewer rows, longer
// slices: as many bytes per barrier), and its pipeline's stages for `operands` staged arrays of
// rows and `vectors` staged arrays read at k alone (static shared memory stays within 48 KiB).
unsigned rowSliceBytes(unsigned rows);
// The arrays read at k alone that a row reduction stages beside its rows (those of the rows'
// element width; others are read as written).
std::vector<const StagedOperand*> rowReductionVectors(const LoopAnalysis& analysis);
unsigned rowReductionStages(size_t operands, size_t vectors, unsigned rows);

}  // namespace culift::codegen
