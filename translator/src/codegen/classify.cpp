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
#include "fused_statistics.hpp"
#include "race_analysis.hpp"
#include "reads_first.hpp"

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
      kp.role = v.type.constElements ? ParamRole::ReadOnlyArray : ParamRole::WritableArray;
      for (const auto& [param, record] : f.recordParams)
        if (param == p) kp.record = record;
    } else if (f.mode == IndexMode::ElementWise && !isUniform(f, v.name)) {
      kp.type = Type::pointer(v.type.scalar, true);
      kp.role = ParamRole::PerElementScalar;
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
    out.role = ParamRole::ResultArray;
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

// "float a, const float* x, float* y": the user's parameters before the result fields, but `skip`.
std::string parameterList(const Function& f, int skip) {
  std::string s;
  for (unsigned p = 0; p < f.firstResultParam(); ++p) {
    if (static_cast<int>(p) == skip) continue;
    s += (s.empty() ? "" : ", ") + toString(f.vars[p].type) + " " + f.vars[p].name;
  }
  return s;
}

const Expr* withoutCasts(const Expr* e) {
  while (e && e->kind == ExprKind::Cast && !e->operands.empty()) e = e->operands[0].get();
  return e;
}

// The scalar parameter a loop of `s` counts up to (for (int k = 0; k < n; ++k) gives n), or -1.
int loopBoundParam(const Function& f, const Stmt& s, unsigned depth) {
  if (depth > 64) return -1;
  if (s.kind == StmtKind::For && s.cond && s.cond->kind == ExprKind::Binary && s.cond->operands.size() == 2) {
    const BinaryOp op = s.cond->binaryOp;
    if (op == BinaryOp::Lt || op == BinaryOp::Le || op == BinaryOp::Ne || op == BinaryOp::Gt || op == BinaryOp::Ge) {
      for (const ExprPtr& side : s.cond->operands) {
        const Expr* e = withoutCasts(side.get());
        if (e && e->kind == ExprKind::VarRef && e->var < f.firstResultParam() && f.vars[e->var].type.isValue())
          return static_cast<int>(e->var);
      }
    }
  }
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c)
      if (const int p = loopBoundParam(f, *c, depth + 1); p >= 0) return p;
  for (const StmtPtr& c : s.stmts)
    if (c)
      if (const int p = loopBoundParam(f, *c, depth + 1); p >= 0) return p;
  return -1;
}

// A function without index parameters is an element-wise kernel when it has a result and a
// scalar to run over, and writes no array: each element runs one call, so an array written in
// it would be written by every element at once (a race), and the arrays it reads are the same
// for every element (a coefficient or lookup table). Otherwise it is a device function only,
// and an annotated one is told why and what to write instead.
bool elementWiseOrWhyNot(const Function& f, const std::string& index, DiagnosticSink& diags) {
  std::vector<const Var*> scalars, arrays, written;
  for (unsigned p = 0; p < f.firstResultParam(); ++p) {
    const Var& v = f.vars[p];
    (v.type.isPointer() ? arrays : scalars).push_back(&v);
    if (v.type.isPointer() && !v.type.constElements) written.push_back(&v);
  }
  const bool hasResult = !f.returnType.isVoid() || f.resultRecord.has_value();
  const std::string resultType = f.resultRecord ? f.resultRecord->name : std::string(spelling(f.returnType.scalar));
  const std::string noIndex = "'" + f.name + "' gives no kernel: it has no index parameter (" +
                              (index == "i" ? std::string("i, j or k") : "'" + index + "'") + ")";
  const std::string oneOutputPerCall = "CULIFT_KERNEL void saxpy(float a, const float* x, float* y, int " + index +
                                       ") { y[" + index + "] = a * x[" + index + "] + y[" + index + "]; }";
  if (!written.empty()) {
    std::string names;
    for (const Var* v : written) names += (names.empty() ? "'" : ", '") + v->name + "'";
    std::string hint;
    const int bound = f.body ? loopBoundParam(f, *f.body, 0) : -1;
    if (bound >= 0) {
      hint = "culift runs the loop over '" + f.vars[bound].name + "' as the launch, one thread per index: drop '" +
             f.vars[bound].name + "' and the loop and write one output per call, " + resultType + " " + f.name + "(" +
             parameterList(f, bound) + ", int " + index + ") { <the loop's body for one " + index + "> }, as in " +
             oneOutputPerCall;
    } else {
      hint = "take an index parameter and write one output per call, as in " + oneOutputPerCall;
    }
    if (hasResult) hint += "; or declare the array const if the function only reads it";
    diags.warning(f.range.begin,
                  noIndex + " and writes the array" + (written.size() == 1 ? " " : "s ") + names +
                      ": an element-wise launch runs it once per element, and every element would write the same " +
                      (written.size() == 1 ? "array" : "arrays"),
                  hint);
    return false;
  }
  if (!hasResult) {
    diags.warning(f.range.begin,
                  noIndex + " and returns nothing: an element-wise kernel writes each element's return value",
                  "return the result (" + std::string(scalars.empty() ? "float" : spelling(scalars[0]->type.scalar)) +
                      " " + f.name + "(...)) to run it once per element, or take an index parameter 'int " + index +
                      "' and write an array at it");
    return false;
  }
  if (scalars.empty() && !arrays.empty()) {
    diags.warning(f.range.begin,
                  noIndex +
                      " and no scalar parameter to run element-wise over, only arrays; it is a __device__ "
                      "function for other lifted functions",
                  "add an index parameter to compute one output per thread, " + resultType + " " + f.name + "(" +
                      parameterList(f, -1) + ", int " + index + "), or remove CULIFT_KERNEL if it is a helper");
    return false;
  }
  return true;
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
  } else if (elementWiseOrWhyNot(f, names[0], diags)) {
    f.mode = IndexMode::ElementWise;
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
static void threadShape(const Module& module, Function& f);

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
  for (Function& f : module.functions) threadShape(module, f);
  planLoops(module);
  codegen::diagnoseRaces(module, diags);
  // Row statistics in one pass: a fused kernel for pairs of kernels reducing the same rows, kept
  // where its plan gives each output its own kernel's bits.
  for (codegen::FusedCandidate& c : codegen::fusedRowStatistics(module)) {
    classifyFunction(c.fused, diags);
    threadShape(module, c.fused);
    planLoop(module, c.fused);
    if (c.fused.mode == IndexMode::Grid1D && codegen::keepsBits(c)) module.functions.push_back(std::move(c.fused));
  }
}

// What one thread of a kernel's 32-bit entry takes per step (Function::itemsPerThread,
// arrayAlignment).
void threadShape(const Module& module, Function& f) {
  if (!f.isKernel() || !f.body) return;
  // An element-wise kernel's four elements go as one vector per array, a struct result not.
  const bool vectorizable = !(f.resultRecord && f.mode == IndexMode::ElementWise);
  f.itemsPerThread = mayLoop(module, *f.body, 0) || !vectorizable ? 1 : 4;
  // A body of declarations and one return: eight outputs' reads in flight (reads_first.hpp).
  if (f.itemsPerThread == 4 && codegen::readsIssuedFirst(f)) f.itemsPerThread = codegen::kReadsFirstItems;
  // One index per thread and step: a thread's own neighbouring loads may merge if aligned.
  if (f.itemsPerThread == 1 && f.mode != IndexMode::ElementWise) {
    for (const KernelParam& p : f.signature.params)
      if (p.role == ParamRole::ReadOnlyArray || p.role == ParamRole::WritableArray) f.arrayAlignment = 16;
  }
}

}  // namespace culift
