// Lanes: neighbouring outputs of a row computed side by side. A lane is one output; each lane
// runs the function's own operations in its own order, so its bits are those of the output
// computed alone. What lanes change is the schedule: the lanes' loops run in lock step, and
// their independent chains (one add chain per output of a dot product) overlap in the CPU's
// pipelines instead of waiting on one another.
//
// Lock step needs two things of the kernel, checked here:
//  - it is pure: it writes no memory but its own locals (no array parameter, no reference, no
//    atomic; its callees likewise), so running its outputs interleaved reads what running them
//    one after another reads;
//  - its control flow is uniform: every condition of an if, a loop or a switch has the same
//    value in every lane. A value is varying when it depends on the innermost index (the lane)
//    or, for an element-wise kernel, on a per-element parameter; everything else is the same
//    in every lane, as the lanes read the same memory.
// Expressions may still differ per lane (a conditional, &&, ||): each lane evaluates its own.
#include <functional>
#include <numeric>

#include "lower.hpp"

namespace culift::cpujit::detail {
namespace {

// The variable an lvalue names: a variable itself or the array of an element.
VarId rootOf(const Expr& lvalue) {
  if (lvalue.kind == ExprKind::VarRef) return lvalue.var;
  if (lvalue.kind == ExprKind::Subscript && !lvalue.operands.empty() && lvalue.operands[0]->kind == ExprKind::VarRef)
    return lvalue.operands[0]->var;
  return kNone;
}

bool writes(const Expr& e) {
  return e.kind == ExprKind::Assign || e.kind == ExprKind::CompoundAssign || e.kind == ExprKind::IncDec;
}

// Marks the local references of `s` bound to storage `own` already holds, in declaration order.
void bindReferences(const Stmt& s, const Function& fn, std::vector<bool>& own) {
  if (s.kind == StmtKind::Decl && s.var < fn.vars.size() && !fn.vars[s.var].isParam && fn.vars[s.var].isReference() &&
      s.expr) {
    const VarId root = rootOf(*s.expr);
    own[s.var] = root < own.size() && own[root];
  }
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c) bindReferences(*c, fn, own);
  for (const StmtPtr& c : s.stmts)
    if (c) bindReferences(*c, fn, own);
}

// Whether `fn` (and what it calls) writes only its own locals and value parameters.
class Purity {
 public:
  explicit Purity(const Module& m) : m_(m) {}

  bool pure(FuncId id, std::string* why) {
    if (id >= m_.functions.size()) return fail(why, "it calls an unknown function");
    if (auto it = known_.find(id); it != known_.end()) return it->second || fail(why, reason_[id]);
    known_[id] = false;  // a recursive call is not lowered anyway
    const Function& fn = m_.functions[id];
    std::string r;
    // A local reference bound to the function's own storage writes its own storage.
    std::vector<bool> own(fn.vars.size(), false);
    for (std::size_t v = 0; v < fn.vars.size(); ++v)
      own[v] = !fn.vars[v].isReference() && (fn.vars[v].type.isValue() || fn.vars[v].type.isArray());
    auto ownStorage = [&](VarId v) { return v < own.size() && own[v]; };
    if (fn.body) bindReferences(*fn.body, fn, own);
    if (fn.body)
      visitExprs(*fn.body, [&](const Expr& e) {
        if (!r.empty()) return false;
        if (e.kind == ExprKind::AtomicRmw) r = "'" + fn.name + "' performs an atomic operation";
        else if (writes(e) && !e.operands.empty() && !ownStorage(rootOf(*e.operands[0])))
          r = "'" + fn.name + "' writes memory that is not its own";
        else if (e.kind == ExprKind::Call && !pure(e.callee, &r))
          r = "it calls '" + m_.functions[e.callee].name + "': " + r;
        return r.empty();
      });
    known_[id] = r.empty();
    reason_[id] = r;
    return r.empty() || fail(why, r);
  }

 private:
  static bool fail(std::string* why, const std::string& r) {
    if (why) *why = r;
    return false;
  }
  const Module& m_;
  std::map<FuncId, bool> known_;
  std::map<FuncId, std::string> reason_;
};

// Which variables of a kernel differ between lanes.
class Varying {
 public:
  explicit Varying(const Function& fn) : fn_(fn), varying_(fn.vars.size(), false), group_(fn.vars.size()) {
    std::iota(group_.begin(), group_.end(), VarId{0});
  }

  void seed(VarId v) { mark(v); }

  // Propagates to a fixed point over every write of the body.
  void propagate() {
    do {
      changed_ = false;
      walk(*fn_.body);
    } while (changed_);
  }

  bool of(const Expr& e) const {
    if (e.kind == ExprKind::VarRef && e.var < varying_.size() && varying_[find(e.var)]) return true;
    for (const ExprPtr& o : e.operands)
      if (o && of(*o)) return true;
    return false;
  }

 private:
  VarId find(VarId v) const {
    while (group_[v] != v) v = group_[v];
    return v;
  }
  void mark(VarId v) {
    if (v >= varying_.size()) return;
    v = find(v);
    if (!varying_[v]) changed_ = true;
    varying_[v] = true;
  }
  // A reference and its referent are one variable: a write to either reaches both.
  void join(VarId a, VarId b) {
    if (a >= group_.size() || b >= group_.size()) return;
    a = find(a);
    b = find(b);
    if (a == b) return;
    const bool v = varying_[a] || varying_[b];
    group_[b] = a;
    if (v && !varying_[a]) changed_ = true;
    varying_[a] = v;
  }

  // `context`: the expression is evaluated only where a varying condition holds.
  void expr(const Expr& e, bool context) {
    if (writes(e) && !e.operands.empty()) {
      const Expr& target = *e.operands[0];
      bool v = context;
      for (std::size_t k = 1; k < e.operands.size(); ++k) v = v || of(*e.operands[k]);
      if (target.kind == ExprKind::Subscript && target.operands.size() == 2) v = v || of(*target.operands[1]);
      if (v) mark(rootOf(target));
    }
    const bool branches = e.kind == ExprKind::Conditional || (e.kind == ExprKind::Binary && isLogical(e.binaryOp));
    for (std::size_t k = 0; k < e.operands.size(); ++k)
      if (e.operands[k]) expr(*e.operands[k], context || (branches && k > 0 && of(*e.operands[0])));
  }

  void walk(const Stmt& s) {
    if (s.kind == StmtKind::Decl && s.var < fn_.vars.size()) {
      const Var& v = fn_.vars[s.var];
      bool varying = false;
      if (s.expr) varying = of(*s.expr);
      for (const ExprPtr& i : s.inits) varying = varying || (i && of(*i));
      if (v.isReference() && s.expr) join(s.var, rootOf(*s.expr));
      if (varying) mark(s.var);
    }
    for (const Expr* e : {s.cond.get(), s.expr.get()})
      if (e) expr(*e, false);
    for (const ExprPtr& i : s.inits)
      if (i) expr(*i, false);
    for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
      if (c) walk(*c);
    for (const StmtPtr& c : s.stmts)
      if (c) walk(*c);
  }

  const Function& fn_;
  std::vector<bool> varying_;  // per group's representative
  std::vector<VarId> group_;
  bool changed_ = false;
};

// The first statement whose condition is varying, or null.
const Stmt* varyingCondition(const Stmt& s, const Varying& v) {
  const bool conditional = s.kind == StmtKind::If || s.kind == StmtKind::For || s.kind == StmtKind::While ||
                           s.kind == StmtKind::DoWhile || s.kind == StmtKind::Switch;
  if (conditional && s.cond && v.of(*s.cond)) return &s;
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (const Stmt* r = c ? varyingCondition(*c, v) : nullptr) return r;
  for (const StmtPtr& c : s.stmts)
    if (const Stmt* r = c ? varyingCondition(*c, v) : nullptr) return r;
  return nullptr;
}

}  // namespace

bool lanesFit(const Module& module, const Function& fn, unsigned axes, std::string* why) {
  auto no = [&](std::string r) {
    if (why) *why = std::move(r);
    return false;
  };
  if (!fn.isKernel() || !fn.body) return no("not a kernel with a body");
  if (fn.returnType.isVoid() || fn.resultRecord) return no("it returns no single value");
  for (unsigned p = 0; p < fn.numParams; ++p)
    if (fn.param(p).isReference()) return no("parameter '" + fn.param(p).name + "' is a reference");
  const FuncId id = static_cast<FuncId>(&fn - module.functions.data());
  std::string impure;
  if (!Purity(module).pure(id, &impure)) return no(impure);

  Varying varying(fn);
  if (fn.mode == IndexMode::ElementWise) {
    for (const KernelParam& kp : fn.signature.params)
      if (kp.role == ParamRole::PerElementScalar && kp.userParam >= 0) varying.seed(static_cast<VarId>(kp.userParam));
  } else {
    const unsigned rank = culift::rank(fn.mode);
    if (axes > rank) return no("it has fewer axes than the lanes");
    for (unsigned a = rank - axes; a < rank; ++a)
      if (a < fn.indexParams.size() && fn.indexParams[a] >= 0) varying.seed(static_cast<VarId>(fn.indexParams[a]));
  }
  varying.propagate();
  if (const Stmt* s = varyingCondition(*fn.body, varying))
    return no("line " + std::to_string(s->range.begin.line) +
              ": a condition that differs between neighbouring outputs");
  return true;
}

}  // namespace culift::cpujit::detail
