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
  const char* code = compiled.options().checked ? "checked" : "unchecked";
  for (std::size_t set = 0; set < spec.argSets.size(); ++set) {
    const LaunchData d = prepareLaunch(fn, spec, /*quiet=*/false, set);
    const interp::Extent extent = d.extent();
    for (const bool asWritten : {false, true}) {
      if (asWritten && !kernel->reassociates()) break;
      const std::string where = std::string(code) + ", argument set " + std::to_string(set) +
                                (kernel->reassociates() ? (asWritten ? ", loop as written" : ", plan's order") : "");
      ++r.launches;
      std::vector<std::vector<std::uint8_t>> bytes = d.bytes;
      try {
        interpreter.launch(fn, extent, interpreterArgs(d, bytes), asWritten);
      } catch (const interp::Error& e) {
        ++r.interpreterFailed;
        if (!compiled.options().checked) continue;
        if (std::string m = checkedFailsToo(*kernel, fn, d, extent, asWritten, e.diagnostic().format()); !m.empty()) {
          r.mismatch = where + ": " + m;
          return r;
        }
        continue;
      }
      // crossCheckLaunch runs both sides again on private copies of the arguments.
      bytes = d.bytes;
      const CrossCheckResult c = crossCheckLaunch(interpreter, compiled, fn, extent, interpreterArgs(d, bytes),
                                                  asWritten);
      if (c.equal) continue;
      r.mismatch = where + ": " + (c.error.empty() ? c.summary() : c.error) + " (arguments: " + describeLaunch(d) + ")";
      return r;
    }
  }
  return r;
}

}  // namespace culift::rel
