// crossCheckLaunch: one launch on the interpreter and on the compiled code, compared.
#include <cstring>

#include "culift/cpujit_crosscheck.hpp"

namespace culift {
namespace {

// A private copy of every array argument.
struct Copies {
  std::vector<std::vector<std::byte>> bytes;
  std::vector<interp::Arg> args;
  explicit Copies(std::span<const interp::Arg> in) : bytes(in.size()), args(in.begin(), in.end()) {
    for (std::size_t k = 0; k < in.size(); ++k)
      if (const auto* a = std::get_if<interp::ArrayRef>(&in[k])) {
        bytes[k].resize(a->size * byteSize(a->element));
        if (!bytes[k].empty()) std::memcpy(bytes[k].data(), a->data, bytes[k].size());
        interp::ArrayRef copy = *a;
        copy.data = bytes[k].data();
        args[k] = copy;
      }
  }
};

}  // namespace

cpujit::LaunchArgs compiledLaunchArgs(const Function& fn, const interp::Extent& extent,
                                      std::span<const interp::Arg> kernelArgs, std::vector<interp::Value>& scalars) {
  cpujit::LaunchArgs a;
  scalars.resize(fn.signature.params.size());
  std::size_t next = 0;
  for (std::size_t k = 0; k < fn.signature.params.size(); ++k) {
    const KernelParam& kp = fn.signature.params[k];
    if (kp.role == ParamRole::Extent) {
      a.params.push_back(&extent.n[kp.axis]);
      a.lengths.push_back(0);
      continue;
    }
    const interp::Arg& arg = kernelArgs[next++];
    if (const auto* v = std::get_if<interp::Value>(&arg)) {
      scalars[k] = *v;
      a.params.push_back(&scalars[k].b);  // the union's first byte: the value in its own type
      a.lengths.push_back(0);
    } else {
      const auto& r = std::get<interp::ArrayRef>(arg);
      a.params.push_back(r.data);
      a.lengths.push_back(r.size);
    }
  }
  for (unsigned axis = 0; axis < 3; ++axis) a.extent[axis] = axis < extent.rank ? extent.n[axis] : 1;
  return a;
}

CrossCheckResult crossCheckLaunch(const interp::Program& interpreter, const cpujit::Program& compiled,
                                  const Function& fn, const interp::Extent& extent,
                                  std::span<const interp::Arg> kernelArgs, bool loopAsWritten) {
  CrossCheckResult r;
  r.function = fn.name;
  const cpujit::Kernel* k = compiled.kernel(fn);
  if (!k) {
    r.equal = false;
    r.error = "no compiled code: " + compiled.whyNot(fn);
    return r;
  }
  Copies mine(kernelArgs), theirs(kernelArgs);
  try {
    interpreter.launch(fn, extent, mine.args, loopAsWritten);
  } catch (const interp::Error& e) {
    r.equal = false;
    r.error = e.diagnostic().format();
    return r;
  }
  std::vector<interp::Value> scalars;
  const cpujit::LaunchArgs a = compiledLaunchArgs(fn, extent, theirs.args, scalars);
  if (auto failed = k->run(a, 0, a.outputs(), loopAsWritten)) {
    r.equal = false;
    r.error = "the compiled code failed at output " + std::to_string(failed->output) +
              ", the interpreter did not: " + failed->diagnostic.format();
    return r;
  }
  for (std::size_t p = 0; p < kernelArgs.size(); ++p) {
    const auto* arr = std::get_if<interp::ArrayRef>(&kernelArgs[p]);
    if (!arr || !arr->writable) continue;
    const unsigned size = byteSize(arr->element);
    for (std::size_t e = 0; e < arr->size; ++e)
      detail::compareValues(r, "arg" + std::to_string(p) + "[" + std::to_string(e) + "]", arr->element,
                            mine.bytes[p].data() + e * size, theirs.bytes[p].data() + e * size);
  }
  return r;
}

}  // namespace culift
