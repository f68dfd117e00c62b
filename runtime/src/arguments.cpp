// Launch arguments against a kernel signature: every rule of arguments.hpp, each failure an
// ArgumentError that names the kernel, the parameter and what was passed.
#include "culift/runtime/arguments.hpp"

#include <limits>
#include <string>

#include "culift/runtime/buffer.hpp"
#include "culift/runtime/error.hpp"

namespace culift::rt {
namespace {

const char* kAxisNames[3] = {"i", "j", "k"};

bool isArrayRole(ParamRole r) {
  return r == ParamRole::ReadOnlyArray || r == ParamRole::WritableArray || r == ParamRole::PerElementScalar ||
         r == ParamRole::ResultArray;
}
bool isWrittenRole(ParamRole r) { return r == ParamRole::WritableArray || r == ParamRole::ResultArray; }

// The parameter's type as the user wrote it: "const Particle*" for an array of structs.
std::string userType(const KernelParam& p) {
  if (!p.record) return culift::toString(p.type);
  return (p.type.constElements ? "const " : "") + p.record->name + "*";
}

std::string paramLabel(const KernelParam& p, std::size_t position) {
  return "argument " + std::to_string(position + 1) + " ('" + userType(p) + " " + p.name + "')";
}

std::string recordText(std::uint32_t size, std::uint32_t align) {
  return std::to_string(size) + " bytes (align " + std::to_string(align) + ")";
}

// "Scale: argument 2 (...) is an array ...": `what` names its own subject.
[[noreturn]] void reject(const Function& fn, const std::string& what) {
  throw ArgumentError(fn.name + ": " + what + "\n  kernel signature: " + fn.kernelName + fn.signature.toString());
}
// "'Scale' takes 3 launch arguments ...": the kernel is the subject of `predicate`.
[[noreturn]] void rejectKernel(const Function& fn, const std::string& predicate) {
  throw ArgumentError("'" + fn.name + "' " + predicate + "\n  kernel signature: " + fn.kernelName +
                      fn.signature.toString());
}

std::string userSignature(const Function& fn) {
  std::string s = "(";
  std::size_t n = 0;
  for (const KernelParam& p : fn.signature.params) {
    if (p.role == ParamRole::Extent) continue;
    s += (n++ ? ", " : "") + userType(p) + " " + p.name;
  }
  return s + ")";
}

}  // namespace

LaunchArg LaunchArg::of(const Buffer& b) {
  return of(BufferRef{&b.engine(), b.address(), b.element(), b.size(), true, b.recordSize(), b.recordAlign()});
}
LaunchArg LaunchArg::of(Buffer& b) {
  return of(BufferRef{&b.engine(), b.address(), b.element(), b.size(), false, b.recordSize(), b.recordAlign()});
}

std::string LaunchArg::describe() const {
  if (kind == Kind::Scalar) return std::string(spelling(scalar.type)) + " " + scalar.toString();
  return std::string(buffer.readOnly ? "a const buffer of " : "a buffer of ") + std::to_string(buffer.count) + " " +
         (buffer.recordSize ? std::to_string(buffer.recordSize) + "-byte records"
                            : std::string(spelling(buffer.element)));
}

std::size_t launchArgumentCount(const Function& fn) {
  std::size_t n = 0;
  for (const KernelParam& p : fn.signature.params)
    if (p.role != ParamRole::Extent) ++n;
  return n;
}

std::vector<const KernelParam*> argumentParams(const Function& fn) {
  std::vector<const KernelParam*> out;
  for (const KernelParam& p : fn.signature.params)
    if (p.role != ParamRole::Extent) out.push_back(&p);
  return out;
}

std::vector<ResolvedArg> resolveLaunchArguments(const Function& fn, const LaunchPlan& plan,
                                                std::span<const LaunchArg> args, const Engine* engine) {
  if (!fn.isKernel())
    rejectKernel(fn,
                 "is a device-only function (no index parameter and no element-wise form): it "
                 "cannot be launched, only called from other lifted functions");
  const unsigned kernelRank = culift::rank(fn.mode);
  if (plan.rank != kernelRank)
    rejectKernel(fn, "is a " + std::string(name(fn.mode)) + " kernel over " + std::to_string(kernelRank) +
                         " axes, but the launch plan has " + std::to_string(plan.rank) + " (plan: " + plan.toString() +
                         ")");

  // Extents: non-negative, and every index fits the user's index parameter.
  for (unsigned a = 0; a < plan.rank; ++a) {
    std::int64_t n = plan.extent[a];
    if (n < 0) reject(fn, "extent of axis " + std::string(kAxisNames[a]) + " is negative (" + std::to_string(n) + ")");
    if (a < fn.indexParams.size() && n > 0) {
      const Var& index = fn.param(static_cast<unsigned>(fn.indexParams[a]));
      Scalar t = index.type.scalar;
      ScalarValue last = ScalarValue::of<std::int64_t>(n - 1), converted;
      if (!last.convertExactly(t, converted))
        reject(fn, "extent " + std::to_string(n) + " of axis " + kAxisNames[a] + " does not fit the index parameter '" +
                       std::string(spelling(t)) + " " + index.name + "' (its last index " + std::to_string(n - 1) +
                       " overflows " + std::string(spelling(t)) + "): declare the index as long long");
    }
  }
  const std::int64_t elements = plan.elements();

  const std::size_t expected = launchArgumentCount(fn);
  if (args.size() != expected)
    rejectKernel(fn, "takes " + std::to_string(expected) + " launch argument" + (expected == 1 ? "" : "s") + " " +
                         userSignature(fn) + ", got " + std::to_string(args.size()) +
                         " (the plan supplies the extents; index parameters are not passed)");

  std::vector<ResolvedArg> resolved;
  resolved.reserve(fn.signature.params.size());
  std::size_t next = 0;
  for (const KernelParam& p : fn.signature.params) {
    ResolvedArg r;
    r.param = &p;
    if (p.role == ParamRole::Extent) {
      unsigned axis = p.axis < 0 ? 0u : static_cast<unsigned>(p.axis);
      r.value = ScalarValue::of<long long>(axis < 3 ? plan.extent[axis] : 1);
      resolved.push_back(r);
      continue;
    }
    const std::size_t position = next;
    const LaunchArg& a = args[next++];
    const std::string label = paramLabel(p, position);
    // Element-wise kernels: say which scalars are read per element and which are uniform.
    const bool elementWise = fn.mode == IndexMode::ElementWise;
    if (isArrayRole(p.role)) {
      const std::string scalarType(spelling(p.type.scalar));
      if (a.kind != LaunchArg::Kind::Buffer)
        reject(fn, label +
                       (p.role == ParamRole::PerElementScalar               ? " is read per element"
                        : elementWise && p.role == ParamRole::ReadOnlyArray ? " is an array, the same for every element"
                                                                            : " is an array") +
                       ": pass a DeviceBuffer<" + (p.record ? p.record->name + "> or a DeviceBuffer<" : "") +
                       scalarType + ">, got " + a.describe());
      BufferRef b = a.buffer;
      if (b.recordSize) {
        // A buffer of records: the kernel's records, byte for byte, or nothing.
        if (!p.record)
          reject(fn, label + " is an array of " + scalarType + ", not of structs: pass a DeviceBuffer<" + scalarType +
                         ">, got " + a.describe());
        if (b.recordSize != p.record->size || b.recordAlign != p.record->align)
          reject(fn, label + ": a buffer of " + std::to_string(b.recordSize) + "-byte records (align " +
                         std::to_string(b.recordAlign) + "), but the kernel's " + p.record->name + " is " +
                         recordText(p.record->size, p.record->align) +
                         ": pass a buffer of the struct the kernel was translated from");
        // The kernel reads the records' memory as their scalars.
        b.count = b.count * b.recordSize / byteSize(p.record->scalar);
        b.element = p.record->scalar;
        b.recordSize = b.recordAlign = 0;
      } else if (b.element != p.type.scalar) {
        reject(fn, label + " expects a buffer of " + scalarType +
                       (p.record ? " (the " + p.record->name + " records' " + scalarType + "s) or of " +
                                       p.record->name + " records"
                                 : std::string()) +
                       ", got " + a.describe());
      }
      if (engine && b.engine && b.engine != engine)
        reject(fn, label + " is a buffer of another engine: buffers live on the engine that made them");
      if (isWrittenRole(p.role) && b.readOnly)
        reject(fn, label + " is written by the kernel, but the buffer was passed as const");
      // A struct result: its scalars, record->elements() per index.
      const std::uint64_t perIndex = p.role == ParamRole::ResultArray && p.record ? p.record->elements() : 1;
      if (p.role == ParamRole::ResultArray && static_cast<std::uint64_t>(elements) * perIndex > b.count)
        reject(fn, label + " receives one value per index (" + std::to_string(elements) + " for " + plan.toString() +
                       (perIndex > 1
                            ? ", " + std::to_string(perIndex) + " " + std::string(spelling(p.type.scalar)) + " each"
                            : std::string()) +
                       "), but the buffer holds " + std::to_string(b.count));
      if (p.role == ParamRole::PerElementScalar && static_cast<std::uint64_t>(elements) > b.count)
        reject(fn, label + " is read at every index (" + std::to_string(elements) + "), but the buffer holds " +
                       std::to_string(b.count));
      r.isBuffer = true;
      r.buffer = b;
    } else {
      if (a.kind != LaunchArg::Kind::Scalar)
        reject(fn, label + (elementWise ? " is uniform (one value for every element)" : " is a scalar") + ": pass a " +
                       std::string(spelling(p.type.scalar)) + " value, got " + a.describe());
      if (!a.scalar.convertExactly(p.type.scalar, r.value)) {
        std::string hint;
        if (isFloating(p.type.scalar) || isFloating(a.scalar.type) || p.type.scalar == Scalar::Bool ||
            a.scalar.type == Scalar::Bool)
          hint = ": pass exactly a " + std::string(spelling(p.type.scalar)) +
                 " (floating and bool arguments are "
                 "not converted)";
        else hint = ": the value does not fit " + std::string(spelling(p.type.scalar));
        reject(fn, label + " got " + a.describe() + hint);
      }
    }
    resolved.push_back(r);
  }

  // __restrict__: a buffer written by the kernel may not be any other parameter too.
  for (std::size_t x = 0; x < resolved.size(); ++x) {
    const ResolvedArg& w = resolved[x];
    if (!w.isBuffer || !isWrittenRole(w.param->role)) continue;
    const std::uint64_t wBegin = w.buffer.address, wEnd = wBegin + w.buffer.count * byteSize(w.buffer.element);
    for (std::size_t y = 0; y < resolved.size(); ++y) {
      const ResolvedArg& o = resolved[y];
      if (y == x || !o.isBuffer) continue;
      const std::uint64_t oBegin = o.buffer.address, oEnd = oBegin + o.buffer.count * byteSize(o.buffer.element);
      bool overlap = wBegin < oEnd && oBegin < wEnd;
      if (overlap || (wBegin == oBegin && wBegin != 0))
        reject(fn, "the same buffer is passed for '" + w.param->name + "' and '" + o.param->name +
                       "', and the kernel "
                       "writes '" +
                       w.param->name +
                       "': its arrays are __restrict__, so they must not overlap (use two "
                       "buffers)");
    }
  }
  return resolved;
}

}  // namespace culift::rt
