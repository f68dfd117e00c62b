#include "compiled_leg.hpp"

#include "culift/cpujit_crosscheck.hpp"
#include "launch_data.hpp"

namespace culift::rel {
namespace {

// Whether checked compiled code fails the launch the interpreter failed (`why`); "" when it does.
std::string checkedFailsToo(const cpujit::Kernel& kernel, const Function& fn, const LaunchData& d,
                            const interp::Extent& extent, bool loopAsWritten, const std::string& why) {
  std::vector<std::vector<std::uint8_t>> bytes = d.bytes;
  const std::vector<interp::Arg> args = interpreterArgs(d, bytes);
  std::vector<interp::Value> scalars;
  const cpujit::LaunchArgs a = compiledLaunchArgs(fn, extent, args, scalars);
  if (kernel.run(a, 0, a.outputs(), loopAsWritten)) return {};
  return "the interpreter failed, checked compiled code did not: " + why;
}

}  // namespace

CompiledLegResult runCompiledLeg(const interp::Program& interpreter, const cpujit::Program& compiled,
                                 const Function& fn, const ProgramSpec& spec) {
  CompiledLegResult r;
  const cpujit::Kernel* kernel = compiled.kernel(fn);
  if (!kernel) {
    r.whyNot = compiled.whyNot(fn);
    return r;
  }
  r.lowered = true;
  const LaunchData d = prepareLaunch(fn, spec, /*quiet=*/false);
  const interp::Extent extent = d.extent();
  const char* code = compiled.options().checked ? "checked" : "unchecked";
  for (const bool asWritten : {false, true}) {
    if (asWritten && !kernel->reassociates()) break;
    const std::string order = kernel->reassociates() ? (asWritten ? ", loop as written" : ", plan's order") : "";
    std::vector<std::vector<std::uint8_t>> bytes = d.bytes;
    const std::vector<interp::Arg> args = interpreterArgs(d, bytes);
    try {
      interpreter.launch(fn, extent, args, asWritten);
    } catch (const interp::Error& e) {
      r.interpreterFailed = true;
      if (compiled.options().checked)
        r.mismatch = checkedFailsToo(*kernel, fn, d, extent, asWritten, e.diagnostic().format());
      if (!r.mismatch.empty()) r.mismatch = std::string(code) + order + ": " + r.mismatch;
      return r;
    }
    // crossCheckLaunch runs both sides again on private copies of the arguments.
    const CrossCheckResult c = crossCheckLaunch(interpreter, compiled, fn, extent, interpreterArgs(d, bytes = d.bytes),
                                                asWritten);
    if (c.equal) continue;
    r.mismatch = std::string(code) + order + ": " + (c.error.empty() ? c.summary() : c.error) +
                 " (arguments: " + describeLaunch(d) + ")";
    return r;
  }
  return r;
}

}  // namespace culift::rel
