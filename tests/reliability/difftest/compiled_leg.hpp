// The compiled CPU leg: a generated program launched over its whole extent by the compiled CPU
// backend (cpujit/, checked and unchecked code) and by the interpreter, compared bit for bit.
#pragma once

#include <string>

#include "culift/cpujit.hpp"
#include "culift/interpreter.hpp"
#include "program.hpp"

namespace culift::rel {

struct CompiledLegResult {
  bool lowered = false;            // the kernel has compiled code (else: whyNot)
  unsigned launches = 0;           // launches compared (argument sets, times two orders if reassociating)
  unsigned interpreterFailed = 0;  // of those, launches the interpreter failed
  std::string whyNot;
  std::string mismatch;  // empty when the compiled code computed the interpreter's bits
};

// Launches `fn` (the kernel of `spec`) over kAxisExtent once per argument set (prepareLaunch:
// arrays and scalars of that set, signaling NaNs kept), in the interpreter and in `compiled`; a reassociating kernel
// both in its plan's order and as written. NaNs compare equal whatever their bits (docs/runtime.md: the compiled
// backend does not promise a NaN's sign or payload). Where the interpreter reports an error, checked code must fail
// too, and unchecked code (whose result C++ does not define) is not compared. The generator makes no atomics, so no
// result depends on the outputs' order.
CompiledLegResult runCompiledLeg(const interp::Program& interpreter, const cpujit::Program& compiled,
                                 const Function& fn, const ProgramSpec& spec);

}  // namespace culift::rel
