#include "kernel_wrapper.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <regex>
#include <stdexcept>

#include "ast_printer.hpp"
#include "reads_first.hpp"

namespace culift::codegen {
namespace {

// How one axis of the index space maps onto the launch.
struct Axis {
  const char* loopVar;  // the 64-bit index
  char dim;             // blockIdx.<dim>
};

// The last axis on x, where consecutive threads of a warp take consecutive indices (C order:
// the last index varies fastest in memory): 1-D i on x; 2-D i on y, j on x; 3-D i on z, j on y,
// k on x.
Axis axisOf(IndexMode mode, unsigned axis) {
  if (mode == IndexMode::Grid1D || mode == IndexMode::ElementWise) return {"culift_e", 'x'};
  static constexpr std::array<Axis, 2> kGrid2 = {Axis{"culift_i", 'y'}, Axis{"culift_j", 'x'}};
  static constexpr std::array<Axis, 3> kGrid3 = {Axis{"culift_i", 'z'}, Axis{"culift_j", 'y'}, Axis{"culift_k", 'x'}};
  return mode == IndexMode::Grid3D ? kGrid3.at(axis) : kGrid2.at(axis);
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
  std::string r(roleName(fn, p));
  if (p.role == ParamRole::Extent) r += " of " + indexName(fn, p.axis < 0 ? 0 : static_cast<unsigned>(p.axis));
  return r;
}

bool isPointerRole(ParamRole r) { return r != ParamRole::Scalar && r != ParamRole::Extent; }
bool isConstRole(ParamRole r) { return r == ParamRole::ReadOnlyArray || r == ParamRole::PerElementScalar; }

// A kernel parameter name that would hide a CUDA built-in or a loop variable of the wrapper
// is renamed; arguments are passed by position, so the name is free to choose.
std::string wrapperParamName(const KernelParam& p, size_t position) {
  // An array of structs arrives typed (const Particle* ps_records); the statements read it as
  // the flat array of its scalars under the user's name.
  if (p.record) return p.name + "_records";
  static constexpr std::array<std::string_view, 9> kTaken = {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize",
                                                             "culift_e",  "culift_i", "culift_j", "culift_k"};
  for (std::string_view t : kTaken)
    if (p.name == t) return "culift_p" + std::to_string(position) + "_" + p.name;
  if (p.name.empty()) return "culift_p" + std::to_string(position);
  return p.name;
}

// The pointer type an entry takes for an array parameter: `const float*`, or `const Particle*`
// for an array of structs.
std::string pointerType(const KernelParam& p) {
  const bool isConst = isConstRole(p.role) || (p.type.isPointer() && p.type.constElements);
  return std::string(isConst ? "const " : "") +
         (p.record ? recordTypeName(*p.record) : std::string(spelling(p.type.scalar))) + "*";
}

std::string paramDeclaration(const KernelParam& p, const std::string& name) {
  if (p.role == ParamRole::Extent) return "long long " + name;
  if (!isPointerRole(p.role) && p.type.isValue()) return std::string(spelling(p.type.scalar)) + " " + name;
  return pointerType(p) + " __restrict__ " + name;
}

}  // namespace

std::string recordTypeName(const RecordView& r) {
  std::string name;
  for (char c : r.name) {
    const bool word = std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    if (word) name += c;
    else if (!name.empty() && name.back() != '_') name += '_';
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name = "culift_record_" + name;
  // CUDA's own vector types (float3, int2, dim3, ...) are taken.
  static const std::regex kCudaVector("(u?(char|short|int|long|longlong)|float|double)[1-4]|dim3");
  if (std::regex_match(name, kCudaVector)) name = "culift_" + name;
  return name;
}

std::string flatPointer(const KernelParam& p, const std::string& name) {
  if (!p.record) return name;
  const bool isConst = isConstRole(p.role) || p.type.constElements;
  return "reinterpret_cast<" + std::string(isConst ? "const " : "") + std::string(spelling(p.type.scalar)) + "*>(" +
         name + ")";
}

void emitRecordTypes(const std::vector<const Function*>& functions, CodeWriter& out) {
  std::vector<const RecordView*> done;
  for (const Function* fn : functions)
    for (const KernelParam& p : fn->signature.params) {
      if (!p.record || !fn->isKernel()) continue;
      const RecordView& r = *p.record;
      const std::string name = recordTypeName(r);
      bool seen = false;
      for (const RecordView* d : done) {
        if (recordTypeName(*d) != name) continue;
        if (!(*d == r))
          throw std::logic_error("two layouts of the struct " + r.name + " in one module: " + std::to_string(d->size) +
                                 " and " + std::to_string(r.size) + " bytes");
        seen = true;
      }
      if (seen) continue;
      done.push_back(&r);
      const std::string scalar(spelling(r.scalar));
      const unsigned width = byteSize(r.scalar);
      out.blank();
      out.line(0, "// " + r.name + " as the host lays it out (" + std::to_string(r.size) + " bytes, aligned to " +
                      std::to_string(r.align) + "): the kernels take arrays of it and read its " + scalar +
                      "s (p[i].f is p[i * " + std::to_string(r.elements()) + " + offset of f]).");
      out.line(0, "struct alignas(" + std::to_string(r.align) + ") " + name + " {");
      std::uint32_t at = 0;
      unsigned pads = 0;
      auto pad = [&](std::uint32_t to) {
        if (to > at)
          out.line(1, scalar + " culift_pad" + std::to_string(pads++) + "[" + std::to_string((to - at) / width) + "];");
        at = std::max(at, to);
      };
      for (const RecordField& f : r.fields) {
        pad(f.offset);
        out.line(1, scalar + " " + f.path + ";");
        at = f.offset + width;
      }
      pad(r.size);
      out.line(0, "};");
      out.line(0, "static_assert(sizeof(" + name + ") == " + std::to_string(r.size) + " && alignof(" + name +
                      ") == " + std::to_string(r.align) + ", \"" + r.name + ": the host's size and alignment\");");
      // NVRTC has no offsetof: the offsets are checked where nvcc compiles the file.
      out.line(0, "#ifndef __CUDACC_RTC__");
      for (const RecordField& f : r.fields)
        out.line(0, "static_assert(__builtin_offsetof(" + name + ", " + f.path + ") == " + std::to_string(f.offset) +
                        ", \"" + r.name + "::" + f.path + ": the host's offset\");");
      out.line(0, "#endif");
    }
}

std::string describeKernel(const Function& fn) {
  std::string s = "kernel " + fn.kernelName + "(";
  for (size_t k = 0; k < fn.signature.params.size(); ++k) {
    const KernelParam& p = fn.signature.params[k];
    if (k) s += ", ";
    s += (p.record ? pointerType(p) : toString(p.type)) + " " + p.name + " [" + roleText(fn, p) + "]";
  }
  return s + ")";
}

EntryParams entryParams(const Function& fn) {
  EntryParams e;
  const KernelSignature& sig = fn.signature;
  for (size_t k = 0; k < sig.params.size(); ++k) {
    const KernelParam& p = sig.params[k];
    e.names.push_back(wrapperParamName(p, k));
    if (k) e.declarations += ", ";
    e.declarations += paramDeclaration(p, e.names.back());
    if (p.role == ParamRole::Extent && p.axis >= 0 && p.axis < 3) e.extent[p.axis] = e.names.back();
    if (p.role == ParamRole::ResultArray) e.outName = e.names.back();
  }
  for (unsigned a = 0; a < rank(fn.mode); ++a)
    if (e.extent[a].empty())
      throw std::logic_error("kernel " + fn.kernelName + " of " + fn.name + " has no extent for axis " +
                             std::to_string(a));
  return e;
}

namespace {

// What both wrappers of a function share: parameter names and declarations, the extent and
// `out` parameters, and the call of the device function.
struct Wrapper {
  const Function& fn;
  const Module* module = nullptr;  // where the wrapper prints the function's statements itself
  unsigned axes = 0;
  std::vector<std::string> names;     // kernel parameter names, by position
  std::array<std::string, 3> extent;  // extent parameter of axis 0, 1, 2
  std::string outName;                // "" for void functions
  std::string params;                 // the declaration list

  explicit Wrapper(const Function& f, const Module* m = nullptr) : fn(f), module(m), axes(rank(f.mode)) {
    EntryParams e = entryParams(f);
    names = std::move(e.names);
    extent = std::move(e.extent);
    outName = std::move(e.outName);
    params = std::move(e.declarations);
  }

  // The device function called with the user's parameters in the user's order (arguments()).
  template <typename ElementArg> std::string call(const std::array<std::string, 3>& loopVar,
                                                  const std::array<std::string, 3>& extent, Scalar indexType,
                                                  ElementArg element) const {
    std::string c = (fn.deviceName.empty() ? fn.name : fn.deviceName) + "(";
    const std::vector<std::string> args = arguments(loopVar, extent, indexType, element);
    for (size_t u = 0; u < args.size(); ++u) c += (u ? ", " : "") + args[u];
    return c + ")";
  }

  // What the wrapper passes for each user parameter, by position: index parameters from `loopVar`
  // (of C type `indexType`), element inputs through `element`, arrays under the wrapper's names.
  // A struct result's fields are written where they belong: the fields of out[<flat index of
  // `loopVar` in `extent`>] go to its reference parameters.
  template <typename ElementArg> std::vector<std::string> arguments(const std::array<std::string, 3>& loopVar,
                                                                    const std::array<std::string, 3>& extent,
                                                                    Scalar indexType, ElementArg element) const {
    const KernelSignature& sig = fn.signature;
    std::vector<std::string> args;
    for (unsigned u = 0; u < fn.numParams; ++u) {
      if (u >= fn.firstResultParam()) {
        args.push_back(outName + "[" + flatIndex(loopVar, extent) + "]." +
                       fn.resultRecord->fields[u - fn.firstResultParam()].path);
        continue;
      }
      bool found = false;
      for (unsigned a = 0; a < fn.indexParams.size() && a < axes; ++a) {
        if (fn.indexParams[a] != static_cast<int>(u)) continue;
        const Scalar t = fn.vars[u].type.scalar;
        args.push_back(t == indexType ? loopVar[a] : "(" + std::string(spelling(t)) + ")" + loopVar[a]);
        found = true;
        break;
      }
      for (size_t k = 0; !found && k < sig.params.size(); ++k) {
        if (sig.params[k].userParam != static_cast<int>(u)) continue;
        args.push_back(sig.params[k].role == ParamRole::PerElementScalar ? element(k)
                                                                         : flatPointer(sig.params[k], names[k]));
        found = true;
      }
      if (!found)
        throw std::logic_error("kernel " + fn.kernelName + " does not pass parameter '" + fn.vars[u].name + "' of " +
                               fn.name);
    }
    return args;
  }

  // The element of `out` of the indices `v` in extents `n`, in C order.
  std::string flatIndex(const std::array<std::string, 3>& v, const std::array<std::string, 3>& n) const {
    switch (fn.mode) {
      case IndexMode::Grid2D: return v[0] + " * " + n[1] + " + " + v[1];
      case IndexMode::Grid3D: return "(" + v[0] + " * " + n[1] + " + " + v[1] + ") * " + n[2] + " + " + v[2];
      default: return v[0];
    }
  }

  // `out[<flat index>] = <call>;`, or the call alone for void functions and struct results (the
  // call writes those).
  // The element a call's value is stored to, or "" where the call is the whole statement.
  std::string target(const std::array<std::string, 3>& v, const std::array<std::string, 3>& n) const {
    if (outName.empty() || fn.returnType.isVoid()) return "";
    return outName + "[" + flatIndex(v, n) + "]";
  }

  std::string store(const std::string& callText, const std::array<std::string, 3>& v,
                    const std::array<std::string, 3>& n) const {
    return PerOutput{target(v, n), callText}.statement();
  }

  // Axis order of the loop nest: i outermost, the last axis (on x) innermost, so consecutive
  // threads of a warp take consecutive indices of it and the loads along it and the stores coalesce.
  std::vector<unsigned> loopOrder() const {
    switch (fn.mode) {
      case IndexMode::Grid3D: return {0, 1, 2};
      case IndexMode::Grid2D: return {0, 1};
      default: return {0};
    }
  }
};

std::string threadStart(char d) {
  const std::string s(1, d);
  return "blockIdx." + s + " * blockDim." + s + " + threadIdx." + s;
}
std::string gridStride(char d) {
  const std::string s(1, d);
  return "gridDim." + s + " * blockDim." + s;
}

// The 64-bit wrapper: one index per thread and step, any extents, any launch.
void emitWide(const Wrapper& w, CodeWriter& out) {
  const Function& fn = w.fn;
  std::array<std::string, 3> v, n = w.extent;
  for (unsigned a = 0; a < w.axes; ++a) v[a] = axisOf(fn.mode, a).loopVar;
  const std::string callText = w.call(v, n, Scalar::I64, [&](size_t k) { return w.names[k] + "[" + v[0] + "]"; });
  out.line(0, "// " + fn.name + ", 64-bit indices: any extents and any launch; a grid-stride loop per axis.");
  out.line(0, "extern \"C\" __global__ void " + fn.wideKernelName + "(" + w.params + ") {");
  unsigned indent = 1;
  for (unsigned a : w.loopOrder()) {
    const Axis ax = axisOf(fn.mode, a);
    out.line(indent, "#pragma unroll 1");
    out.line(indent, "for (long long " + v[a] + " = (long long)" + threadStart(ax.dim) + "; " + v[a] + " < " + n[a] +
                         "; " + v[a] + " += (long long)" + gridStride(ax.dim) + ") {");
    ++indent;
  }
  out.line(indent, w.store(callText, v, n));
  while (indent > 1) out.line(--indent, "}");
  out.line(0, "}");
}

// The wrapper of a part of a launch: the outputs [culift_first, culift_last) in row-major order,
// one per thread and step of a 1-D grid-stride loop, each output's indices from its flat index.
// A launch split over devices runs one part on each (rt::DeviceGroup).
void emitPart(const Wrapper& w, CodeWriter& out) {
  const Function& fn = w.fn;
  std::array<std::string, 3> v, n = w.extent;
  for (unsigned a = 0; a < w.axes; ++a) v[a] = axisOf(fn.mode, a).loopVar;
  const std::string callText = w.call(v, n, Scalar::I64, [&](size_t k) { return w.names[k] + "[" + v[0] + "]"; });
  out.line(0, "// " + fn.name +
                  ", a part of a launch: the outputs [culift_first, culift_last) in row-major order, "
                  "64-bit indices.");
  out.line(0, "extern \"C\" __global__ void " + fn.partKernelName() + "(" + w.params +
                  ", long long culift_first, long long culift_last) {");
  out.line(1, "#pragma unroll 1");
  out.line(1, "for (long long culift_flat = culift_first + (long long)" + threadStart('x') +
                  "; culift_flat < culift_last; culift_flat += (long long)" + gridStride('x') + ") {");
  switch (w.axes) {
    case 3:
      out.line(2, "const long long " + v[0] + " = culift_flat / (" + n[1] + " * " + n[2] + ");");
      out.line(2, "const long long " + v[1] + " = culift_flat / " + n[2] + " % " + n[1] + ";");
      out.line(2, "const long long " + v[2] + " = culift_flat % " + n[2] + ";");
      break;
    case 2:
      out.line(2, "const long long " + v[0] + " = culift_flat / " + n[1] + ";");
      out.line(2, "const long long " + v[1] + " = culift_flat % " + n[1] + ";");
      break;
    default: out.line(2, "const long long " + v[0] + " = culift_flat;"); break;
  }
  out.line(2, w.store(callText, v, n));
  out.line(1, "}");
  out.line(0, "}");
}

// The 32-bit wrapper the runtime launches whenever every loop index fits in an int. With
// itemsPerThread = 4 a thread takes four indices of the innermost axis per step: blockDim.x
// apart (each access of a warp stays coalesced), or, for element-wise kernels, four consecutive
// elements read and written as one vector per array (the runtime checks the alignment).
void emitFast(const Wrapper& w, CodeWriter& out) {
  const Function& fn = w.fn;
  const unsigned items = fn.itemsPerThread;
  const std::string itemsText = std::to_string(items);
  std::array<std::string, 3> v, n;
  static constexpr std::array<const char*, 3> kCount = {"culift_ni", "culift_nj", "culift_nk"};
  for (unsigned a = 0; a < w.axes; ++a) {
    v[a] = axisOf(fn.mode, a).loopVar;
    n[a] = kCount[a];
  }
  const bool vectorized = fn.mode == IndexMode::ElementWise && items > 1;
  // A body of declarations and one return: its reads of every index first (reads_first.hpp).
  const std::optional<std::vector<const Expr*>> reads = !vectorized && items == kReadsFirstItems && w.module
                                                            ? readsIssuedFirst(fn)
                                                            : std::nullopt;
  const bool readsFirst = reads.has_value();
  std::string what = vectorized   ? ", " + itemsText + " consecutive elements per thread as one vector per array"
                     : readsFirst ? ", " + itemsText + " indices per thread, blockDim.x apart, their reads first"
                     : items > 1  ? ", " + itemsText + " indices per thread, blockDim.x apart"
                                  : "";
  out.line(0, "// " + fn.name + ": " + std::string(name(fn.mode)) + ", 32-bit indices" + what +
                  "; the runtime launches " + fn.wideKernelName + " when an index could pass 2^31 - 1" +
                  (vectorized ? " or an array is not aligned to its vector." : "."));
  out.line(0, "extern \"C\" __global__ void " + fn.kernelName + "(" + w.params + ") {");
  for (unsigned a = 0; a < w.axes; ++a) out.line(1, "const int " + n[a] + " = (int)" + w.extent[a] + ";");
  if (fn.arrayAlignment > 0) {
    const std::string align = std::to_string(fn.arrayAlignment);
    for (size_t k = 0; k < fn.signature.params.size(); ++k) {
      const KernelParam& p = fn.signature.params[k];
      if (p.role != ParamRole::ReadOnlyArray && p.role != ParamRole::WritableArray) continue;
      out.line(1, w.names[k] + " = (" + pointerType(p) + ")__builtin_assume_aligned(" + w.names[k] + ", " + align +
                      ");  // checked by the runtime");
    }
  }

  if (vectorized) {
    const KernelSignature& sig = fn.signature;
    out.line(1, "const int culift_groups = culift_ni / " + itemsText + ";");
    out.line(1, "#pragma unroll 1");
    out.line(1, "for (int culift_g = " + threadStart('x') +
                    "; culift_g < culift_groups; culift_g += " + gridStride('x') + ") {");
    for (size_t k = 0; k < sig.params.size(); ++k) {
      if (sig.params[k].role != ParamRole::PerElementScalar) continue;
      const std::string vec = "culift_vec<" + std::string(spelling(sig.params[k].type.scalar)) + ", " + itemsText + ">";
      out.line(2, "const " + vec + " culift_a" + std::to_string(k) + " = reinterpret_cast<const " + vec + "*>(" +
                      w.names[k] + ")[culift_g];");
    }
    const std::array<std::string, 3> lane = {"culift_e"};
    const std::string laneCall = w.call(lane, n, Scalar::I32,
                                        [&](size_t k) { return "culift_a" + std::to_string(k) + ".v[culift_u]"; });
    const std::string outVec = "culift_vec<" + std::string(spelling(fn.returnType.scalar)) + ", " + itemsText + ">";
    out.line(2, outVec + " culift_r;");
    out.line(2, "#pragma unroll");
    out.line(2, "for (int culift_u = 0; culift_u < " + itemsText + "; ++culift_u) culift_r.v[culift_u] = " + laneCall +
                    ";");
    out.line(2, "reinterpret_cast<" + outVec + "*>(" + w.outName + ")[culift_g] = culift_r;");
    out.line(1, "}");
    out.line(1, "// The last culift_ni % " + itemsText + " elements, one per thread.");
    out.line(1, "#pragma unroll 1");
    out.line(1, "for (int culift_e = culift_groups * " + itemsText + " + (int)(" + threadStart('x') +
                    "); culift_e < culift_ni; culift_e += " + gridStride('x') + ") {");
    const std::string tailCall = w.call(lane, n, Scalar::I32, [&](size_t k) { return w.names[k] + "[culift_e]"; });
    out.line(2, w.store(tailCall, lane, n));
    out.line(1, "}");
    out.line(0, "}");
    return;
  }

  const std::string callText = w.call(v, n, Scalar::I32, [&](size_t k) { return w.names[k] + "[" + v[0] + "]"; });
  const std::string store = w.store(callText, v, n);
  const std::vector<unsigned> order = w.loopOrder();
  auto loop = [&](unsigned indent, unsigned a) {
    const char d = axisOf(fn.mode, a).dim;
    out.line(indent, "#pragma unroll 1");
    out.line(indent, "for (int " + v[a] + " = " + threadStart(d) + "; " + v[a] + " < " + n[a] + "; " + v[a] +
                         " += " + gridStride(d) + ") {");
  };
  unsigned indent = 1;
  for (size_t o = 0; o + 1 < order.size(); ++o) loop(indent++, order[o]);
  const unsigned inner = order.back();
  if (items == 1) {
    loop(indent, inner);
    out.line(indent + 1, store);
  } else {
    // `items` indices of the innermost axis per thread and step, blockDim.x apart.
    const std::string b = v[inner] + "0";
    const std::string d(1, axisOf(fn.mode, inner).dim);
    out.line(indent, "#pragma unroll 1");
    out.line(indent, "for (int " + b + " = blockIdx." + d + " * blockDim." + d + " * " + itemsText + " + threadIdx." +
                         d + "; " + b + " < " + n[inner] + "; " + b + " += " + gridStride(d[0]) + " * " + itemsText +
                         ") {");
    if (reads) {
      std::vector<CodeWriter::Scope> depth;  // the structured writer at the loop body's depth
      while (out.depth() < indent + 1) depth.push_back(out.indented());
      ReadsFirstStep step;
      step.reads = &*reads;
      for (const StmtPtr& s : fn.body->stmts) step.stmts.push_back(s.get());
      step.stepped = inner < fn.indexParams.size() ? static_cast<VarId>(fn.indexParams[inner]) : kNone;
      step.loopVar = v;
      step.inner = inner;
      step.first = b;
      step.innerExtent = n[inner];
      step.argumentsAt = [&](const std::array<std::string, 3>& at) {
        return w.arguments(at, n, Scalar::I32, [&](size_t k) { return w.names[k] + "[" + at[0] + "]"; });
      };
      step.store = [&](const std::array<std::string, 3>& at, const std::string& value) {
        return w.store(value, at, n);
      };
      emitReadsFirstStep(*w.module, fn, step, out);
    } else {
      out.line(indent + 1, "#pragma unroll");
      out.line(indent + 1, "for (int culift_u = 0; culift_u < " + itemsText + "; ++culift_u) {");
      out.line(indent + 2, "const int " + v[inner] + " = " + b + " + culift_u * (int)blockDim.x;");
      out.line(indent + 2, "if (" + v[inner] + " < " + n[inner] + ") " + store);
      out.line(indent + 1, "}");
    }
  }
  for (unsigned i = indent + 1; i-- > 1;) out.line(i, "}");
  out.line(0, "}");
}

}  // namespace

PerOutput perOutputParts(const Function& fn, const std::array<std::string, 3>& loopVar,
                         const std::array<std::string, 3>& extent, const std::string& callee,
                         const std::string& leading) {
  if (fn.mode != IndexMode::Grid2D && fn.mode != IndexMode::Grid3D)
    throw std::logic_error("perOutputStatement: " + fn.name + " is not a 2-D or 3-D kernel");
  const Wrapper w(fn);
  std::string callText = w.call(loopVar, extent, Scalar::I32,
                                [&](size_t k) { return w.names[k] + "[" + loopVar[0] + "]"; });
  if (!callee.empty()) {
    // The same arguments to `callee`, after `leading`.
    std::string args = callText.substr(callText.find('(') + 1);
    callText = callee + "(" + leading + (leading.empty() || args == ")" ? "" : ", ") + args;
  }
  return {w.target(loopVar, extent), callText};
}

std::string perOutputStatement(const Function& fn, const std::array<std::string, 3>& loopVar,
                               const std::array<std::string, 3>& extent, const std::string& callee,
                               const std::string& leading) {
  return perOutputParts(fn, loopVar, extent, callee, leading).statement();
}

void emitKernelLauncher(const Function& fn, CodeWriter& out) {
  const Wrapper w(fn);
  const KernelSignature& sig = fn.signature;
  const unsigned items = std::max(1u, fn.itemsPerThread);
  const bool vectorized = fn.mode == IndexMode::ElementWise && items > 1;
  std::string params, args;
  for (size_t k = 0; k < sig.params.size(); ++k) {
    std::string d = paramDeclaration(sig.params[k], w.names[k]);
    if (const size_t r = d.find(" __restrict__"); r != std::string::npos) d.erase(r, 13);
    params += d + ", ";
    args += (k ? ", " : "") + w.names[k];
  }
  const unsigned axes = w.axes;
  std::string elements, anyEmpty, anyNegative;
  for (unsigned a = 0; a < axes; ++a) {
    elements += (a ? " * (double)" : "(double)") + w.extent[a];
    anyEmpty += (a ? " || " : "") + w.extent[a] + " == 0";
    anyNegative += (a ? " || " : "") + w.extent[a] + " < 0";
  }
  out.line(0, "// Launches " + fn.name +
                  " over its extents on `culift_stream` as the culift runtime launches its per-thread");
  out.line(0, "// entries: " + fn.kernelName + " while every index fits in an int" +
                  (vectorized || fn.arrayAlignment ? " and the arrays are aligned as it assumes" : "") + ", else " +
                  fn.wideKernelName + ". Returns cudaGetLastError().");
  out.line(0, "inline cudaError_t culift_launch_" + fn.name + "(" + params + "cudaStream_t culift_stream = 0) {");
  out.line(1, "if (" + anyNegative + ") return cudaErrorInvalidValue;");
  out.line(1, "if (" + anyEmpty + ") return cudaSuccess;");
  std::string narrow = elements + " <= 2147483647.0";
  for (unsigned a = 0; a < axes; ++a) narrow += " && " + w.extent[a] + " <= (1LL << 30)";
  for (size_t k = 0; k < sig.params.size(); ++k) {
    const KernelParam& p = sig.params[k];
    unsigned alignment = 0;
    if (vectorized && (p.role == ParamRole::PerElementScalar || p.role == ParamRole::ResultArray))
      alignment = byteSize(p.type.scalar) * items;
    if (fn.arrayAlignment && (p.role == ParamRole::ReadOnlyArray || p.role == ParamRole::WritableArray))
      alignment = std::max(alignment, fn.arrayAlignment);
    if (alignment > 1)
      narrow += " && reinterpret_cast<unsigned long long>(" + w.names[k] + ") % " + std::to_string(alignment) + " == 0";
  }
  out.line(1, "const bool culift_narrow = " + narrow + ";");
  out.line(1, items > 1 ? "const long long culift_items = culift_narrow ? " + std::to_string(items) +
                              " : 1;  // indices per thread along x"
                        : std::string("const long long culift_items = 1;  // indices per thread along x"));
  auto blocks = [](const std::string& extent, const std::string& per, const std::string& cap) {
    return "(unsigned)std::min<long long>((" + extent + " + " + per + " - 1) / (" + per + "), " + cap + ")";
  };
  // The last axis on x, C order (as the wrappers' loops expect); grid-stride loops take the rest.
  switch (axes) {
    case 1:
      out.line(1, "const dim3 culift_block(256);");
      out.line(1, "const dim3 culift_grid(" + blocks(w.extent[0], "256 * culift_items", "2147483647LL") + ");");
      break;
    case 2:
      out.line(1, "const dim3 culift_block(32, 8);");
      out.line(1, "const dim3 culift_grid(" + blocks(w.extent[1], "32 * culift_items", "2147483647LL") + ", " +
                      blocks(w.extent[0], "8", "65535LL") + ");");
      break;
    default:
      out.line(1, "const dim3 culift_block(32, 4, 2);");
      out.line(1, "const dim3 culift_grid(" + blocks(w.extent[2], "32 * culift_items", "2147483647LL") + ", " +
                      blocks(w.extent[1], "4", "65535LL") + ", " + blocks(w.extent[0], "2", "65535LL") + ");");
      break;
  }
  out.line(1,
           "if (culift_narrow) " + fn.kernelName + "<<<culift_grid, culift_block, 0, culift_stream>>>(" + args + ");");
  out.line(1, "else " + fn.wideKernelName + "<<<culift_grid, culift_block, 0, culift_stream>>>(" + args + ");");
  out.line(1, "return cudaGetLastError();");
  out.line(0, "}");
}

void openEntryGuard(CodeWriter& out, const std::string& kernel) {
  out.line(0, "#if !defined(" + std::string(kOnlyEntriesMacro) + ") || defined(" + entryMacro(kernel) + ")");
}
void closeEntryGuard(CodeWriter& out, const std::string& kernel) { out.line(0, "#endif  // " + kernel); }

void emitKernelWrapper(const Module& module, const Function& fn, CodeWriter& out) {
  const Wrapper w(fn, &module);
  openEntryGuard(out, fn.kernelName);
  emitFast(w, out);
  closeEntryGuard(out, fn.kernelName);
  out.blank();
  openEntryGuard(out, fn.wideKernelName);
  emitWide(w, out);
  closeEntryGuard(out, fn.wideKernelName);
  out.blank();
  openEntryGuard(out, fn.partKernelName());
  emitPart(w, out);
  closeEntryGuard(out, fn.partKernelName());
}

}  // namespace culift::codegen
