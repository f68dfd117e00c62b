// Classification by index convention (DESIGN.md, "Index conventions"): which parameters are
// thread indices, what kind of launch a function gets, and the parameter list of its
// __global__ wrapper.
//
// Output layout of the implicit result array `culift_out` (row-major, 64-bit offsets):
//   Grid1D, ElementWise:  out[i]
//   Grid2D:               out[i * cols + j]
//   Grid3D:               out[(i * cols + j) * depth + k]  (C order: k varies fastest)
#include <algorithm>
#include <array>
#include <map>

#include "culift/ast/stack.hpp"
#include "culift/codegen.hpp"
#include "race_analysis.hpp"

namespace culift {
namespace {

const std::vector<std::string> kDefaultIndexNames = {"i", "j", "k"};

// The user parameter named `name`, or -1.
int findParam(const Function& f, const std::string& name) {
  if (name.empty()) return -1;
  for (unsigned p = 0; p < f.numParams; ++p)
    if (f.vars[p].name == name) return static_cast<int>(p);
  return -1;
}

SourceLoc where(const Function& f, int param) {
  if (param >= 0 && f.vars[param].range.begin.valid()) return f.vars[param].range.begin;
  return f.range.begin;
}

KernelParam extent(const char* name, int axis) {
  KernelParam p;
  p.name = name;
  p.type = Type::value(Scalar::I64);
  p.role = ParamRole::Extent;
  p.axis = axis;
  return p;
}

bool isUniform(const Function& f, const std::string& name) {
  return std::find(f.uniformNames.begin(), f.uniformNames.end(), name) != f.uniformNames.end();
}

void buildSignature(Function& f) {
  KernelSignature& sig = f.signature;
  sig.params.clear();
  for (unsigned p = 0; p < f.firstResultParam(); ++p) {
    if (std::find(f.indexParams.begin(), f.indexParams.end(), static_cast<int>(p)) != f.indexParams.end()) continue;
    const Var& v = f.vars[p];
    KernelParam kp;
    kp.name = v.name;
    kp.userParam = static_cast<int>(p);
    if (v.type.isPointer()) {
      kp.type = v.type;
      kp.role = v.type.constElements ? ParamRole::InputArray : ParamRole::OutputArray;
      for (const auto& [param, record] : f.recordParams)
        if (param == p) kp.record = record;
    } else if (f.mode == IndexMode::ElementWise && !isUniform(f, v.name)) {
      kp.type = Type::pointer(v.type.scalar, true);
      kp.role = ParamRole::ElementInput;
    } else {
      kp.type = v.type;
      kp.role = ParamRole::Scalar;
    }
    sig.params.push_back(std::move(kp));
  }
  if (!f.returnType.isVoid() || f.resultRecord) {
    KernelParam out;
    out.name = "culift_out";
    out.type = Type::pointer(f.resultRecord ? f.resultRecord->scalar : f.returnType.scalar, false);
    out.role = ParamRole::Out;
    out.record = f.resultRecord;
    sig.params.push_back(std::move(out));
  }
  switch (f.mode) {
    case IndexMode::Grid1D:
    case IndexMode::ElementWise: sig.params.push_back(extent("culift_n", 0)); break;
    case IndexMode::Grid2D:
      sig.params.push_back(extent("culift_rows", 0));
      sig.params.push_back(extent("culift_cols", 1));
      break;
    case IndexMode::Grid3D:
      sig.params.push_back(extent("culift_rows", 0));
      sig.params.push_back(extent("culift_cols", 1));
      sig.params.push_back(extent("culift_depth", 2));
      break;
    case IndexMode::DeviceOnly: break;
  }
}

void classifyFunction(Function& f, DiagnosticSink& diags) {
  f.mode = IndexMode::DeviceOnly;
  f.indexParams.clear();
  f.signature.params.clear();
  f.deviceName = f.name;
  f.kernelName.clear();
  f.wideKernelName.clear();
  f.itemsPerThread = 1;
  f.arrayAlignment = 0;
  if (!f.annotated) return;  // callees are device functions only

  const std::vector<std::string>& names = f.indexNames.empty() ? kDefaultIndexNames : f.indexNames;
  std::array<int, 3> axis = {-1, -1, -1};
  for (size_t a = 0; a < 3 && a < names.size(); ++a) axis[a] = findParam(f, names[a]);

  bool ok = true;
  for (size_t a = 0; a < 3; ++a) {
    if (axis[a] < 0) continue;
    const Var& v = f.vars[axis[a]];
    if (!v.type.isValue() || !isInteger(v.type.scalar)) {
      diags.error(where(f, axis[a]),
                  "index parameter '" + v.name + "' of '" + f.name + "' must be an integer passed by value, not '" +
                      toString(v.type) + "'",
                  "parameters named " + names[0] + (names.size() > 1 ? ", " + names[1] : "") +
                      (names.size() > 2 ? ", " + names[2] : "") +
                      " are thread indices; rename the parameter if it is not one");
      ok = false;
    }
  }
  if (axis[1] >= 0 && axis[0] < 0) {
    diags.error(where(f, axis[1]),
                "index parameter '" + names[1] + "' of '" + f.name + "' needs '" + names[0] + "' too",
                "a 2-D kernel takes both '" + names[0] + "' (rows) and '" + names[1] + "' (columns)");
    ok = false;
  }
  if (axis[2] >= 0 && (axis[0] < 0 || axis[1] < 0)) {
    diags.error(where(f, axis[2]),
                "index parameter '" + names[2] + "' of '" + f.name + "' needs '" + names[0] + "' and '" + names[1] +
                    "' too",
                "a 3-D kernel takes '" + names[0] + "', '" + names[1] + "' and '" + names[2] + "'");
    ok = false;
  }
  for (const std::string& u : f.uniformNames) {
    const int p = findParam(f, u);
    if (p >= 0 && std::find(axis.begin(), axis.end(), p) != axis.end()) {
      diags.error(where(f, p), "index parameter '" + u + "' of '" + f.name + "' cannot be uniform",
                  "CULIFT_UNIFORM marks scalars that are the same for every element; an index differs per thread");
      ok = false;
    }
  }
  if (!ok) return;

  if (axis[0] >= 0) {
    f.mode = axis[1] < 0 ? IndexMode::Grid1D : axis[2] < 0 ? IndexMode::Grid2D : IndexMode::Grid3D;
    for (int a : axis)
      if (a >= 0) f.indexParams.push_back(a);
  } else {
    bool allScalar = true;
    for (unsigned p = 0; p < f.numParams; ++p) allScalar = allScalar && f.vars[p].type.isValue();
    f.mode = allScalar && (!f.returnType.isVoid() || f.resultRecord) ? IndexMode::ElementWise : IndexMode::DeviceOnly;
  }
  if (f.mode == IndexMode::DeviceOnly) return;
  f.kernelName = f.name + "_kernel";
  f.wideKernelName = f.name + "_kernel64";
  buildSignature(f);
}

// Whether running `f` may loop: a loop statement in it or in a function it calls. A loop-free
// body costs a few instructions per index, so its kernel is bound by memory traffic and gains
// from more loads in flight per thread; a looping one already keeps each thread busy.
bool mayLoop(const Module& module, const Stmt& s, unsigned depth);

bool mayLoop(const Module& module, const Expr& e, unsigned depth) {
  if (e.kind == ExprKind::Call) {
    if (depth > 64 || e.callee >= module.functions.size()) return true;
    const Function& callee = module.functions[e.callee];
    if (callee.body && mayLoop(module, *callee.body, depth + 1)) return true;
  }
  for (const ExprPtr& o : e.operands)
    if (o && mayLoop(module, *o, depth)) return true;
  return false;
}

bool mayLoop(const Module& module, const Stmt& s, unsigned depth) {
  if (s.kind == StmtKind::For || s.kind == StmtKind::While || s.kind == StmtKind::DoWhile) return true;
  for (const Expr* e : {s.cond.get(), s.expr.get()})
    if (e && mayLoop(module, *e, depth)) return true;
  for (const ExprPtr& e : s.inits)
    if (e && mayLoop(module, *e, depth)) return true;
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c && mayLoop(module, *c, depth)) return true;
  for (const StmtPtr& c : s.stmts)
    if (c && mayLoop(module, *c, depth)) return true;
  return false;
}

}  // namespace

static void classifyHere(Module& module, DiagnosticSink& diags);

void classify(Module& module, DiagnosticSink& diags) {
  // mayLoop and the planner recurse as deep as the user nested the code: on culift's stack.
  runOnCuliftStack([&] { classifyHere(module, diags); });
}

void classifyHere(Module& module, DiagnosticSink& diags) {
  std::map<std::string, const Function*> byName;
  for (const Function& f : module.functions) {
    auto [it, inserted] = byName.emplace(f.name, &f);
    if (!inserted)
      diags.error(f.range.begin, "two lifted functions are named '" + f.name + "'",
                  "CUDA C has no overloading here: give each function its own name");
  }
  for (Function& f : module.functions) classifyFunction(f, diags);
  for (Function& f : module.functions) {
    if (!f.isKernel() || !f.body) continue;
    // An element-wise kernel's four elements go as one vector per array, a struct result not.
    const bool vectorizable = !(f.resultRecord && f.mode == IndexMode::ElementWise);
    f.itemsPerThread = mayLoop(module, *f.body, 0) || !vectorizable ? 1 : 4;
    // One index per thread and step: a thread's own neighbouring loads may merge if aligned.
    if (f.itemsPerThread == 1 && f.mode != IndexMode::ElementWise) {
      for (const KernelParam& p : f.signature.params)
        if (p.role == ParamRole::InputArray || p.role == ParamRole::OutputArray) f.arrayAlignment = 16;
    }
  }
  planLoops(module);
  codegen::diagnoseRaces(module, diags);
}

}  // namespace culift
