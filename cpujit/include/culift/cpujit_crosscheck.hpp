// Cross-check of a launch: the interpreter (the oracle) and the compiled CPU code run the same
// launch on private copies of the arrays; every writable array and the out array are compared
// bit for bit (any two NaNs match), as crossCheck() compares a call with native code.
//
//   auto r = culift::crossCheckLaunch(*interpreter, *compiled, *module->find("GramDot"), extent, args);
//   if (!r.equal) std::puts(r.summary().c_str());
#pragma once

#include <span>

#include "culift/cpujit.hpp"
#include "culift/crosscheck.hpp"

namespace culift {

// The compiled code's arguments of a launch, `kernelArgs` as interp::Program::launch takes them:
// per signature parameter an array's data (not copied) or the address of a scalar's value, kept
// in `scalars`.
cpujit::LaunchArgs compiledLaunchArgs(const Function& fn, const interp::Extent& extent,
                                      std::span<const interp::Arg> kernelArgs, std::vector<interp::Value>& scalars);

// `kernelArgs` as interp::Program::launch takes them (the signature without its extents). The
// result's `error` holds the interpreter's error, or says that the kernel has no compiled code.
CrossCheckResult crossCheckLaunch(const interp::Program& interpreter, const cpujit::Program& compiled,
                                  const Function& fn, const interp::Extent& extent,
                                  std::span<const interp::Arg> kernelArgs, bool loopAsWritten = false);

}  // namespace culift
