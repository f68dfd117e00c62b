// The entries a loop plan adds to a kernel (Function::planEntries): tiled contractions for 2-D
// kernels, staged row reductions for 1-D ones. Each runs the user's statements once per output
// in source order, so it gives the per-thread entry's bits.
#pragma once

#include <string_view>

#include "code_writer.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

// Device helpers the entries use (asynchronous global-to-shared copies); emitted once per
// module that has any plan entry.
extern const std::string_view kPlanPrelude;

// Writes every entry of fn.planEntries. Throws std::logic_error when the plan no longer holds
// for the function (a planner bug).
void emitPlanEntries(const Module& module, const Function& fn, CodeWriter& out);

// Stages of the row-reduction pipeline for `operands` staged arrays (each stage of each array
// holds 32 rows x 256 bytes; static shared memory stays within 48 KiB).
unsigned rowReductionStages(size_t operands);

}  // namespace culift::codegen
