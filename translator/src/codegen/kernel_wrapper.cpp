#include "kernel_wrapper.hpp"

#include <array>
#include <stdexcept>

#include "ast_printer.hpp"

namespace culift::codegen {
namespace {

// How one axis of the index space maps onto the launch.
struct Axis {
  const char* loopVar;  // the 64-bit index
  char dim;             // blockIdx.<dim>
};

// Axis 0 (i, rows) on y, axis 1 (j, columns) on x, axis 2 (k) on z; a single axis on x.
Axis axisOf(IndexMode mode, unsigned axis) {
  if (mode == IndexMode::Grid1D || mode == IndexMode::ElementWise) return {"culift_e", 'x'};
  static constexpr std::array<Axis, 3> kGrid = {Axis{"culift_i", 'y'}, Axis{"culift_j", 'x'}, Axis{"culift_k", 'z'}};
  return kGrid.at(axis);
}

std::string indexName(const Function& fn, unsigned axis) {
  if (fn.mode == IndexMode::ElementWise) return "elements";
  if (axis < fn.indexParams.size()) {
    const int p = fn.indexParams[axis];
    if (p >= 0 && static_cast<unsigned>(p) < fn.numParams && !fn.vars[p].name.empty()) return fn.vars[p].name;
  }
  if (axis < fn.indexNames.size()) return fn.indexNames[axis];
  return std::string(1, "ijk"[axis % 3]);
}

std::string roleText(const Function& fn, const KernelParam& p) {
  std::string r(name(p.role));
  if (p.role == ParamRole::Extent) r += " of " + indexName(fn, p.axis < 0 ? 0 : static_cast<unsigned>(p.axis));
  return r;
}

bool isPointerRole(ParamRole r) { return r != ParamRole::Scalar && r != ParamRole::Extent; }
bool isConstRole(ParamRole r) { return r == ParamRole::InputArray || r == ParamRole::ElementInput; }

// A kernel parameter name that would hide a CUDA built-in or a loop variable of the wrapper
// is renamed; arguments are passed by position, so the name is free to choose.
std::string wrapperParamName(const KernelParam& p, size_t position) {
  static constexpr std::array<std::string_view, 9> kTaken = {
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "culift_e", "culift_i", "culift_j", "culift_k"};
  for (std::string_view t : kTaken)
    if (p.name == t) return "culift_p" + std::to_string(position) + "_" + p.name;
  if (p.name.empty()) return "culift_p" + std::to_string(position);
  return p.name;
}

std::string paramDeclaration(const KernelParam& p, const std::string& name) {
  if (p.role == ParamRole::Extent) return "long long " + name;
  if (!isPointerRole(p.role) && p.type.isValue()) return std::string(spelling(p.type.scalar)) + " " + name;
  const bool isConst = isConstRole(p.role) || (p.type.isPointer() && p.type.constElements);
  return std::string(isConst ? "const " : "") + std::string(spelling(p.type.scalar)) + "* __restrict__ " + name;
}

}  // namespace

std::string describeKernel(const Function& fn) {
  std::string s = "kernel " + fn.kernelName + "(";
  for (size_t k = 0; k < fn.signature.params.size(); ++k) {
    const KernelParam& p = fn.signature.params[k];
    if (k) s += ", ";
    s += toString(p.type) + " " + p.name + " [" + roleText(fn, p) + "]";
  }
  return s + ")";
}

void emitKernelWrapper(const Function& fn, CodeWriter& out) {
  const KernelSignature& sig = fn.signature;
  const unsigned axes = rank(fn.mode);
  std::vector<std::string> names;
  std::array<std::string, 3> extent;
  std::string outName;
  std::string params;
  for (size_t k = 0; k < sig.params.size(); ++k) {
    const KernelParam& p = sig.params[k];
    names.push_back(wrapperParamName(p, k));
    if (k) params += ", ";
    params += paramDeclaration(p, names.back());
    if (p.role == ParamRole::Extent && p.axis >= 0 && p.axis < 3) extent[p.axis] = names.back();
    if (p.role == ParamRole::Out) outName = names.back();
  }
  for (unsigned a = 0; a < axes; ++a)
    if (extent[a].empty())
      throw std::logic_error("kernel " + fn.kernelName + " of " + fn.name + " has no extent for axis " + std::to_string(a));

  // The call of the device function, with the user's parameters in the user's order.
  std::string call = (fn.deviceName.empty() ? fn.name : fn.deviceName) + "(";
  for (unsigned u = 0; u < fn.numParams; ++u) {
    if (u) call += ", ";
    bool found = false;
    for (unsigned a = 0; a < fn.indexParams.size() && a < axes; ++a) {
      if (fn.indexParams[a] != static_cast<int>(u)) continue;
      const Scalar t = fn.vars[u].type.scalar;
      const std::string loopVar = axisOf(fn.mode, a).loopVar;
      call += t == Scalar::I64 ? loopVar : "(" + std::string(spelling(t)) + ")" + loopVar;
      found = true;
      break;
    }
    for (size_t k = 0; !found && k < sig.params.size(); ++k) {
      if (sig.params[k].userParam != static_cast<int>(u)) continue;
      call += sig.params[k].role == ParamRole::ElementInput ? names[k] + "[culift_e]" : names[k];
      found = true;
    }
    if (!found)
      throw std::logic_error("kernel " + fn.kernelName + " does not pass parameter '" + fn.vars[u].name + "' of " + fn.name);
  }
  call += ")";

  std::string store;
  if (!outName.empty() && !fn.returnType.isVoid()) {
    std::string index;
    switch (fn.mode) {
      case IndexMode::Grid2D: index = "culift_i * " + extent[1] + " + culift_j"; break;
      case IndexMode::Grid3D: index = "(culift_k * " + extent[0] + " + culift_i) * " + extent[1] + " + culift_j"; break;
      default: index = "culift_e"; break;
    }
    store = outName + "[" + index + "] = " + call + ";";
  } else {
    store = call + ";";
  }

  out.line(0, "// " + fn.name + ": " + std::string(name(fn.mode)) +
                  ", a grid-stride loop per axis so a launch of any size covers every index.");
  out.line(0, "extern \"C\" __global__ void " + fn.kernelName + "(" + params + ") {");
  // Loop nest: k (z) outermost, then i (y), then j (x): consecutive threads of a warp take
  // consecutive j, so loads along a row and the stores into `out` coalesce.
  std::vector<unsigned> order;
  switch (fn.mode) {
    case IndexMode::Grid3D: order = {2, 0, 1}; break;
    case IndexMode::Grid2D: order = {0, 1}; break;
    default: order = {0}; break;
  }
  unsigned indent = 1;
  for (unsigned a : order) {
    const Axis ax = axisOf(fn.mode, a);
    const std::string v = ax.loopVar;
    const std::string d(1, ax.dim);
    out.line(indent, "for (long long " + v + " = (long long)blockIdx." + d + " * blockDim." + d + " + threadIdx." + d +
                         "; " + v + " < " + extent[a] + "; " + v + " += (long long)gridDim." + d + " * blockDim." + d +
                         ") {");
    ++indent;
  }
  out.line(indent, store);
  while (indent > 1) out.line(--indent, "}");
  out.line(0, "}");
}

}  // namespace culift::codegen
