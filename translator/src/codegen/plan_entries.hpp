// The entries a loop plan adds to a kernel (Function::planEntries), each written by its plan's
// unit (plans/plan.hpp). Each runs the user's statements once per output in source order, so it
// gives the per-thread entry's bits; a reassociating row reduction (a warp per output) adds in
// the documented order the interpreter's launches reproduce.
#pragma once

#include "code_writer.hpp"
#include "culift/ast/module.hpp"

namespace culift::codegen {

// Writes every entry of fn.planEntries. Throws std::logic_error when the plan no longer holds
// for the function (a planner bug).
void emitPlanEntries(const Module& module, const Function& fn, CodeWriter& out);

}  // namespace culift::codegen
