// Shrinks a failing generated program while it keeps failing the same way: deletes
// statements, switch cases and unused helpers, inlines if-bodies, and replaces expressions
// by zero literals or by their own operands. Every edit is made on the generator's tree, so
// the printed program keeps every guard and stays free of undefined behaviour.
#pragma once

#include <functional>

#include "generator.hpp"

namespace culift::rel {

struct ReduceStats {
  unsigned attempts = 0;
  unsigned accepted = 0;
};

// `stillFails` runs the oracle on a candidate. The program is reduced in place; at most
// `maxAttempts` candidates are tried.
ReduceStats reduceProgram(Generated& program, const std::function<bool(const ProgramSpec&)>& stillFails,
                          unsigned maxAttempts = 400);

}  // namespace culift::rel
