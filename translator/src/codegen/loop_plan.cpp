// The loop planner: legality (analyzeLoop), the plan (planLoops) and the symmetry proof.
// Shaped like a vectorizer: first "may we?", then "which form?", and for every loop left as
// written a remark saying why (Function::loopPlanReason, shown by `culift ast`).
#include "loop_plan.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "culift/ast/stack.hpp"
#include "culift/codegen.hpp"
#include "plan_entries.hpp"

namespace culift::codegen {

namespace {

// What a value depends on.
enum Dep : unsigned {
  kDepI = 1,        // the first thread index (rows)
  kDepJ = 2,        // the second thread index (columns)
  kDepK = 4,        // the loop counter
  kDepVarying = 8,  // a local that changes, or a parameter the body assigns
  kDepArray = 16,   // an array element
  kDepEffect = 32,  // an assignment inside the expression
};

// Every expression of an expression or statement tree, outermost first.
template <typename Tree> void forEachExpr(const Tree& t, const std::function<void(const Expr&)>& f) {
  visitExprs(t, [&](const Expr& e) {
    f(e);
    return true;
  });
}

void forEachStmt(const Stmt& s, const std::function<void(const Stmt&)>& f) {
  f(s);
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c) forEachStmt(*c, f);
  for (const StmtPtr& c : s.stmts)
    if (c) forEachStmt(*c, f);
}

bool isLoop(const Stmt& s) {
  return s.kind == StmtKind::For || s.kind == StmtKind::While || s.kind == StmtKind::DoWhile;
}

const Expr& stripCasts(const Expr& e) {
  const Expr* p = &e;
  while (p->kind == ExprKind::Cast && !p->operands.empty() && isInteger(p->type.scalar)) p = p->operands[0].get();
  return *p;
}

// The variable an assignment, compound assignment or ++/-- writes, or the array it writes an
// element of.
const Expr* assignmentTarget(const Expr& e) {
  if (e.kind != ExprKind::Assign && e.kind != ExprKind::CompoundAssign && e.kind != ExprKind::IncDec) return nullptr;
  return e.operands.empty() ? nullptr : e.operands[0].get();
}

// ---- structural comparison, with i and j exchanged for the symmetry proof -------------------

bool commutes(BinaryOp op) {
  return op == BinaryOp::Add || op == BinaryOp::Mul || op == BinaryOp::Eq || op == BinaryOp::Ne ||
         op == BinaryOp::BitAnd || op == BinaryOp::BitOr || op == BinaryOp::BitXor;
}

struct SwapCompare {
  VarId i, j;
  std::map<VarId, const Expr*> inlined;  // locals compared as their initializers
  VarId swapped(VarId v) const { return v == i ? j : v == j ? i : v; }

  const Expr& resolve(const Expr& e) const {
    const Expr* p = &e;
    for (unsigned depth = 0; depth < 64 && p->kind == ExprKind::VarRef; ++depth) {
      auto it = inlined.find(p->var);
      if (it == inlined.end()) break;
      p = it->second;
    }
    return *p;
  }

  bool expr(const Expr& x, const Expr& y) const {
    const Expr& a = resolve(x);
    const Expr& b = resolve(y);
    if (a.kind != b.kind || !(a.type == b.type) || a.operands.size() != b.operands.size()) return false;
    switch (a.kind) {
      case ExprKind::IntLiteral:
      case ExprKind::BoolLiteral: return a.intBits == b.intBits;
      case ExprKind::FloatLiteral: return a.floatValue == b.floatValue;
      case ExprKind::VarRef: return swapped(a.var) == b.var;
      case ExprKind::Call:
        if (a.callee != b.callee) return false;
        break;
      case ExprKind::MathCall:
        if (a.math != b.math) return false;
        break;
      case ExprKind::Unary:
        if (a.unaryOp != b.unaryOp) return false;
        break;
      case ExprKind::IncDec:
        if (a.incDecOp != b.incDecOp) return false;
        break;
      case ExprKind::CompoundAssign:
        if (a.binaryOp != b.binaryOp || a.computeType != b.computeType) return false;
        break;
      case ExprKind::Cast:
        if (a.explicitCast != b.explicitCast) return false;
        break;
      case ExprKind::Binary:
        if (a.binaryOp != b.binaryOp) return false;
        if (commutes(a.binaryOp) && expr(*a.operands[0], *b.operands[1]) && expr(*a.operands[1], *b.operands[0]))
          return true;
        break;
      default: break;
    }
    for (size_t k = 0; k < a.operands.size(); ++k) {
      if (!a.operands[k] || !b.operands[k]) {
        if (a.operands[k] || b.operands[k]) return false;
        continue;
      }
      if (!expr(*a.operands[k], *b.operands[k])) return false;
    }
    return true;
  }

  bool optExpr(const Expr* a, const Expr* b) const { return (!a && !b) || (a && b && expr(*a, *b)); }

  bool stmt(const Stmt& a, const Stmt& b) const {
    // A local compared as its initializer wherever it is used: its declaration is no operation.
    if (a.kind == StmtKind::Decl && b.kind == StmtKind::Decl && a.var == b.var && inlined.count(a.var)) return true;
    if (a.kind != b.kind || a.var != b.var || a.scoped != b.scoped || a.caseValue != b.caseValue ||
        a.arrayInitialized != b.arrayInitialized || a.inits.size() != b.inits.size() ||
        a.stmts.size() != b.stmts.size())
      return false;
    if (!optExpr(a.cond.get(), b.cond.get()) || !optExpr(a.expr.get(), b.expr.get())) return false;
    for (size_t k = 0; k < a.inits.size(); ++k)
      if (!optExpr(a.inits[k].get(), b.inits[k].get())) return false;
    const Stmt* ac[] = {a.init.get(), a.then.get(), a.otherwise.get(), a.body.get()};
    const Stmt* bc[] = {b.init.get(), b.then.get(), b.otherwise.get(), b.body.get()};
    for (int k = 0; k < 4; ++k) {
      if (!ac[k] != !bc[k]) return false;
      if (ac[k] && !stmt(*ac[k], *bc[k])) return false;
    }
    for (size_t k = 0; k < a.stmts.size(); ++k)
      if (!stmt(*a.stmts[k], *b.stmts[k])) return false;
    return true;
  }
};

class Analyzer {
 public:
  explicit Analyzer(const Function& fn) : fn_(fn) {
    for (unsigned a = 0; a < fn.indexParams.size() && a < 2; ++a) axisVar_[a] = static_cast<VarId>(fn.indexParams[a]);
    forEachExpr(*fn.body, [&](const Expr& e) {
      const Expr* t = assignmentTarget(e);
      if (!t) return;
      if (t->kind == ExprKind::VarRef) ++assignments_[t->var];
      if (t->kind == ExprKind::Subscript && !t->operands.empty() && t->operands[0]->kind == ExprKind::VarRef)
        written_.insert(t->operands[0]->var);
    });
  }

  std::optional<LoopAnalysis> run(std::string& reason);

 private:
  std::string varName(VarId v) const { return v < fn_.vars.size() ? fn_.vars[v].name : "?"; }
  unsigned deps(const Expr& e, unsigned depth = 0);
  std::optional<std::int64_t> coefficient(const Expr& e, VarId var, unsigned depth = 0);
  bool checkBody(const Stmt& body, std::string& reason);
  bool collectReads(const Stmt& s, bool conditional, std::string& reason);
  bool collectReads(const Expr& e, bool conditional, std::string& reason);
  void addRead(std::vector<StagedOperand>& into, const Expr& e, unsigned axis);
  bool sameExpr(const Expr& a, const Expr& b) const;

  const Function& fn_;
  VarId axisVar_[2] = {kNone, kNone};
  std::map<VarId, unsigned> assignments_;
  std::set<VarId> written_;
  std::map<VarId, const Stmt*> prologueDecls_;  // top-level prologue declarations with an init
  std::set<VarId> inlined_;
  std::string culprit_;  // what made the last deps() varying, for remarks
  LoopAnalysis a_;
};

unsigned Analyzer::deps(const Expr& e, unsigned depth) {
  if (depth > 256) return kDepVarying;
  switch (e.kind) {
    case ExprKind::VarRef: {
      const VarId v = e.var;
      if (v == axisVar_[0]) return kDepI;
      if (v == axisVar_[1]) return kDepJ;
      if (v == a_.counter) return kDepK;
      if (v < fn_.numParams) {
        if (fn_.vars[v].type.isPointer()) return 0;
        if (assignments_.count(v)) {
          culprit_ = "'" + varName(v) + "', which is assigned";
          return kDepVarying;
        }
        return 0;
      }
      // A local declared before the loop with an initializer and never assigned again stands
      // for its initializer.
      auto it = prologueDecls_.find(v);
      if (it != prologueDecls_.end() && !assignments_.count(v) && fn_.vars[v].type.isValue()) {
        const unsigned d = deps(*it->second->expr, depth + 1);
        if (!(d & (kDepVarying | kDepArray | kDepEffect))) inlined_.insert(v);
        return d;
      }
      culprit_ = "'" + varName(v) + "', which changes";
      return kDepVarying;
    }
    case ExprKind::Subscript: {
      unsigned d = kDepArray;
      for (const ExprPtr& o : e.operands) d |= deps(*o, depth + 1);
      if (culprit_.empty() && !e.operands.empty() && e.operands[0]->kind == ExprKind::VarRef)
        culprit_ = "an element of '" + varName(e.operands[0]->var) + "'";
      return d;
    }
    case ExprKind::Assign:
    case ExprKind::CompoundAssign:
    case ExprKind::IncDec: culprit_ = "an assignment"; return kDepEffect;
    default: {
      unsigned d = 0;
      for (const ExprPtr& o : e.operands) {
        if (!o) continue;
        if (o->type.isPointer() && e.kind == ExprKind::Call) d |= kDepArray;
        d |= deps(*o, depth + 1);
      }
      return d;
    }
  }
}

// d(e)/d(var) when it is a constant (e affine in var with a literal coefficient).
std::optional<std::int64_t> Analyzer::coefficient(const Expr& e, VarId var, unsigned depth) {
  if (depth > 64) return std::nullopt;
  const Expr& s = stripCasts(e);
  // Neither var nor a local that may stand for it (conservatively, any inlined local).
  auto independent = [&](const Expr& x) {
    bool uses = false;
    forEachExpr(x, [&](const Expr& y) {
      uses = uses || (y.kind == ExprKind::VarRef && (y.var == var || inlined_.count(y.var)));
    });
    return !uses;
  };
  if (independent(s)) return 0;
  switch (s.kind) {
    case ExprKind::VarRef: {
      if (s.var == var) return 1;
      auto it = prologueDecls_.find(s.var);
      if (it != prologueDecls_.end() && inlined_.count(s.var)) return coefficient(*it->second->expr, var, depth + 1);
      return std::nullopt;
    }
    case ExprKind::Binary: {
      const Expr& l = *s.operands[0];
      const Expr& r = *s.operands[1];
      auto cl = coefficient(l, var, depth + 1), cr = coefficient(r, var, depth + 1);
      if (s.binaryOp == BinaryOp::Add && cl && cr) return *cl + *cr;
      if (s.binaryOp == BinaryOp::Sub && cl && cr) return *cl - *cr;
      if (s.binaryOp == BinaryOp::Mul) {
        const Expr& sl = stripCasts(l);
        const Expr& sr = stripCasts(r);
        if (cr && *cr == 0 && sr.kind == ExprKind::IntLiteral && cl) return *cl * static_cast<std::int64_t>(sr.intBits);
        if (cl && *cl == 0 && sl.kind == ExprKind::IntLiteral && cr) return *cr * static_cast<std::int64_t>(sl.intBits);
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

// The same value: the same tree up to the order of commutative operands.
bool Analyzer::sameExpr(const Expr& a, const Expr& b) const { return SwapCompare{kNone, kNone, {}}.expr(a, b); }

// Statements the loop body may hold: no way out of the loop, no array written, no loop.
bool Analyzer::checkBody(const Stmt& body, std::string& reason) {
  bool ok = true;
  std::function<void(const Stmt&, bool)> walk = [&](const Stmt& s, bool inSwitch) {
    if (!ok) return;
    switch (s.kind) {
      case StmtKind::Return:
        reason = "the loop returns from inside";
        ok = false;
        return;
      case StmtKind::Break:
        if (!inSwitch) reason = "the loop leaves early (break)", ok = false;
        return;
      case StmtKind::Continue:
        reason = "the loop skips ahead (continue)";
        ok = false;
        return;
      default: break;
    }
    const bool nowInSwitch = inSwitch || s.kind == StmtKind::Switch;
    for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
      if (c) walk(*c, nowInSwitch);
    for (const StmtPtr& c : s.stmts)
      if (c) walk(*c, nowInSwitch);
  };
  walk(body, false);
  if (!ok) return false;
  forEachExpr(body, [&](const Expr& e) {
    if (!ok) return;
    if (const Expr* t = assignmentTarget(e)) {
      if (t->kind == ExprKind::VarRef && t->var == a_.counter) {
        reason = varName(a_.counter) + " is assigned in the loop";
        ok = false;
      } else if (t->kind == ExprKind::Subscript && !t->operands.empty() && t->operands[0]->kind == ExprKind::VarRef &&
                 t->operands[0]->var < fn_.numParams) {
        reason = varName(t->operands[0]->var) + " is written in the loop";
        ok = false;
      }
    }
    if (e.kind == ExprKind::Call)
      for (const ExprPtr& o : e.operands)
        if (o && o->type.isPointer()) {
          reason = "a call in the loop takes an array";
          ok = false;
        }
  });
  return ok;
}

// Adds the read `e` (array[index]) to the staged reads `into`: to the entry of the same array and
// index if there is one, else as a new one along `axis`.
void Analyzer::addRead(std::vector<StagedOperand>& into, const Expr& e, unsigned axis) {
  const VarId array = e.operands[0]->var;
  const Expr& index = *e.operands[1];
  auto same = std::find_if(into.begin(), into.end(),
                           [&](const StagedOperand& o) { return o.array == array && sameExpr(*o.index, index); });
  if (same != into.end()) {
    same->reads.push_back(&e);
    return;
  }
  StagedOperand o;
  o.array = array;
  o.index = &index;
  o.reads.push_back(&e);
  o.axis = axis;
  o.element = fn_.vars[array].type.scalar;
  const auto ck = coefficient(index, a_.counter);
  const auto cr = coefficient(index, axisVar_[axis]);
  o.kContiguous = (ck && *ck == 1) || !(cr && *cr == 1);
  o.unitStride = ck && *ck == 1;
  into.push_back(std::move(o));
}

bool Analyzer::collectReads(const Stmt& s, bool conditional, std::string& reason) {
  if (s.kind == StmtKind::If) {
    if (s.cond && !collectReads(*s.cond, conditional, reason)) return false;
    for (const Stmt* c : {s.then.get(), s.otherwise.get()})
      if (c && !collectReads(*c, true, reason)) return false;
    return true;
  }
  const bool inner = conditional || s.kind == StmtKind::Switch;
  for (const Expr* e : {s.cond.get(), s.expr.get()})
    if (e && !collectReads(*e, s.kind == StmtKind::Switch ? conditional : inner, reason)) return false;
  for (const ExprPtr& e : s.inits)
    if (e && !collectReads(*e, inner, reason)) return false;
  for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
    if (c && !collectReads(*c, inner, reason)) return false;
  for (const StmtPtr& c : s.stmts)
    if (c && !collectReads(*c, inner, reason)) return false;
  return true;
}

bool Analyzer::collectReads(const Expr& e, bool conditional, std::string& reason) {
  if (e.kind == ExprKind::Subscript && e.operands.size() == 2 && e.operands[0]->kind == ExprKind::VarRef &&
      e.operands[0]->var < fn_.numParams && fn_.vars[e.operands[0]->var].type.isPointer()) {
    const VarId array = e.operands[0]->var;
    if (written_.count(array)) {
      reason = varName(array) + " is written and read";
      return false;
    }
    culprit_.clear();
    const unsigned d = deps(*e.operands[1]);
    const bool fixed = !(d & (kDepVarying | kDepArray | kDepEffect));
    if (fixed && (d & kDepI) && (d & kDepJ)) {
      reason = "the index of " + varName(array) + " depends on both " + varName(axisVar_[0]) + " and " +
               varName(axisVar_[1]);
      return false;
    }
    const auto ck = fixed ? coefficient(*e.operands[1], a_.counter) : std::nullopt;
    // Read at k alone, one element per step: staged once for all rows (row reductions).
    if (fixed && d == kDepK && !conditional && ck && *ck == 1) {
      addRead(a_.vectors, e, 0);
      return true;
    }
    const bool oneAxis = ((d & kDepI) != 0) != ((d & kDepJ) != 0);
    if (fixed && oneAxis && (d & kDepK) && !conditional) {
      addRead(a_.operands, e, (d & kDepI) ? 0 : 1);
      return true;  // the index itself reads nothing staged
    }
  }
  // The second operand of && and || and the branches of ?: run only sometimes.
  for (size_t k = 0; k < e.operands.size(); ++k) {
    if (!e.operands[k]) continue;
    const bool sometimes = conditional || (e.kind == ExprKind::Conditional && k > 0) ||
                           (e.kind == ExprKind::Binary && isLogical(e.binaryOp) && k > 0);
    if (!collectReads(*e.operands[k], sometimes, reason)) return false;
  }
  return true;
}

std::optional<LoopAnalysis> Analyzer::run(std::string& reason) {
  reason.clear();
  const Stmt& body = *fn_.body;
  unsigned loops = 0;
  forEachStmt(body, [&](const Stmt& s) { loops += isLoop(s) ? 1 : 0; });
  if (loops == 0) return std::nullopt;
  if (fn_.mode != IndexMode::Grid1D && fn_.mode != IndexMode::Grid2D) {
    reason = std::string("loops of ") + (fn_.mode == IndexMode::Grid3D ? "3-D" : "element-wise") +
             " kernels run per thread";
    return std::nullopt;
  }
  // The top-level statements, declaration groups flattened.
  std::vector<const Stmt*> top;
  if (body.kind == StmtKind::Block) {
    for (const StmtPtr& s : body.stmts) {
      if (s->kind == StmtKind::Block && !s->scoped)
        for (const StmtPtr& d : s->stmts) top.push_back(d.get());
      else top.push_back(s.get());
    }
  } else {
    top.push_back(&body);
  }
  size_t at = top.size();
  for (size_t k = 0; k < top.size(); ++k)
    if (top[k]->kind == StmtKind::For) at = k;
  if (loops > 1 || at == top.size()) {
    reason = loops > 1 ? "the body has " + std::to_string(loops) + " loops (one counted loop is lifted)"
                       : "the loop is not a for loop at the top level of the body";
    return std::nullopt;
  }
  a_.loop = top[at];
  a_.prologue.assign(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(at));
  a_.epilogue.assign(top.begin() + static_cast<std::ptrdiff_t>(at) + 1, top.end());

  for (VarId v = 0; v < fn_.vars.size(); ++v) {
    if (fn_.vars[v].type.isArray()) {
      reason = "the local array " + varName(v) + " would be needed per output";
      return std::nullopt;
    }
    if (v < fn_.numParams && assignments_.count(v) && (v == axisVar_[0] || v == axisVar_[1])) {
      reason = "the index parameter " + varName(v) + " is assigned";
      return std::nullopt;
    }
    // A scalar parameter the body assigns: each output changes its own copy.
    if (v < fn_.numParams && assignments_.count(v) && fn_.vars[v].type.isValue()) a_.assignedParams.push_back(v);
  }
  for (const Stmt* s : a_.prologue) {
    if (s->kind == StmtKind::Decl) {
      a_.carried.push_back(s->var);
      if (s->expr) prologueDecls_.emplace(s->var, s);
    }
    forEachStmt(*s, [&](const Stmt& x) { a_.earlyReturn = a_.earlyReturn || x.kind == StmtKind::Return; });
  }

  // for (T k = lo; k < hi; ++k)
  const Stmt& loop = *a_.loop;
  const Stmt* init = loop.init.get();
  if (init && init->kind == StmtKind::Block && !init->scoped && init->stmts.size() == 1) init = init->stmts[0].get();
  if (!init || init->kind != StmtKind::Decl || !init->expr || !fn_.vars[init->var].type.isValue() ||
      !isInteger(fn_.vars[init->var].type.scalar)) {
    reason = "the loop does not declare an integer counter (for (int k = lo; k < hi; ++k))";
    return std::nullopt;
  }
  a_.counter = init->var;
  a_.lowerBound = init->expr.get();
  const std::string k = varName(a_.counter);
  const Expr* cond = loop.cond.get();
  if (!cond || cond->kind != ExprKind::Binary || (cond->binaryOp != BinaryOp::Lt && cond->binaryOp != BinaryOp::Le) ||
      stripCasts(*cond->operands[0]).kind != ExprKind::VarRef || stripCasts(*cond->operands[0]).var != a_.counter) {
    reason = "the loop condition is not " + k + " < bound or " + k + " <= bound";
    return std::nullopt;
  }
  a_.upperBound = cond->operands[1].get();
  a_.inclusive = cond->binaryOp == BinaryOp::Le;
  const Expr* step = loop.expr.get();
  const bool unitStep = step && ((step->kind == ExprKind::IncDec &&
                                  (step->incDecOp == IncDecOp::PreInc || step->incDecOp == IncDecOp::PostInc)) ||
                                 (step->kind == ExprKind::CompoundAssign && step->binaryOp == BinaryOp::Add &&
                                  stripCasts(*step->operands[1]).kind == ExprKind::IntLiteral &&
                                  stripCasts(*step->operands[1]).intBits == 1));
  if (!unitStep || stripCasts(*step->operands[0]).kind != ExprKind::VarRef ||
      stripCasts(*step->operands[0]).var != a_.counter) {
    reason = "the counter " + k + " does not step by one (++" + k + ")";
    return std::nullopt;
  }
  for (const Expr* bound : {a_.lowerBound, a_.upperBound}) {
    culprit_.clear();
    const unsigned d = deps(*bound);
    const char* which = bound == a_.lowerBound ? "start" : "bound";
    if (d & kDepI) reason = std::string("the ") + which + " of " + k + " depends on " + varName(axisVar_[0]);
    else if (d & kDepJ) reason = std::string("the ") + which + " of " + k + " depends on " + varName(axisVar_[1]);
    else if (d & (kDepVarying | kDepArray | kDepEffect))
      reason = std::string("the ") + which + " of " + k + " depends on " + culprit_;
    if (!reason.empty()) return std::nullopt;
  }
  if (!checkBody(*loop.body, reason)) return std::nullopt;
  if (!collectReads(*loop.body, false, reason)) return std::nullopt;
  if (a_.operands.empty()) {
    reason = fn_.mode == IndexMode::Grid2D
                 ? "no array read in the loop is indexed by (" + varName(axisVar_[0]) + ", " + k + ") or (" +
                       varName(axisVar_[1]) + ", " + k + ")"
                 : "no array read in the loop is indexed by (" + varName(axisVar_[0]) + ", " + k + ")";
    return std::nullopt;
  }
  a_.inlined.assign(inlined_.begin(), inlined_.end());
  // Locals still needed per output: used by the loop body (beyond the staged reads' indices) or
  // after the loop.
  std::set<const Expr*> staged;
  for (const StagedOperand& o : a_.operands) staged.insert(o.reads.begin(), o.reads.end());
  std::set<VarId> used;
  auto use = [&](const Expr& e) {
    if (staged.count(&e)) return false;
    if (e.kind == ExprKind::VarRef) used.insert(e.var);
    return true;
  };
  visitExprs(*loop.body, use);
  for (const Stmt* s : a_.epilogue) visitExprs(*s, use);
  for (VarId v : a_.carried)
    if (used.count(v)) a_.live.push_back(v);
  return std::move(a_);
}

}  // namespace

std::optional<LoopAnalysis> analyzeLoop(const Function& fn, std::string& reason) {
  reason.clear();
  if (!fn.isKernel() || !fn.body) return std::nullopt;
  Analyzer analyzer(fn);
  return analyzer.run(reason);
}

std::optional<std::vector<VarId>> reassociableSums(const Function& fn, const LoopAnalysis& a, std::string& reason) {
  reason.clear();
  const Stmt& body = *a.loop->body;
  auto nameOf = [&](VarId v) { return fn.vars[v].name; };
  for (const Stmt* s : a.prologue) {
    forEachExpr(*s, [&](const Expr& e) {
      if (!reason.empty()) return;
      const Expr* t = assignmentTarget(e);
      if (t && t->kind == ExprKind::Subscript) reason = "the statements before the loop write an array";
      else if (e.kind == ExprKind::Call)
        for (const ExprPtr& o : e.operands)
          if (o && o->type.isPointer() && !o->type.constElements)
            reason = "the statements before the loop pass a writable array to a call";
    });
  }
  if (!reason.empty()) return std::nullopt;
  // A warp reads a row at consecutive k; where consecutive outputs read neighbouring elements
  // instead, one thread per output is coalesced already.
  for (const StagedOperand& o : a.operands)
    if (!o.kContiguous) {
      reason = "consecutive " + nameOf(static_cast<VarId>(fn.indexParams[0])) + " read neighbouring elements of " +
               nameOf(o.array) + " already (one thread per output is coalesced)";
      return std::nullopt;
    }

  std::set<VarId> local;  // declared in the body: a value per k
  forEachStmt(body, [&](const Stmt& s) {
    if (s.kind == StmtKind::Decl) local.insert(s.var);
  });
  // Statement-level accumulations `s op= e` and `s = s op e`, and the variable references they
  // account for.
  std::map<VarId, unsigned> accounted;
  std::set<const Expr*> accumulations;
  std::set<VarId> sums;
  auto accumulation = [&](const Expr& e) -> std::optional<VarId> {
    if (e.operands.size() != 2 || !e.operands[0] || e.operands[0]->kind != ExprKind::VarRef) return std::nullopt;
    const VarId v = e.operands[0]->var;
    const Scalar t = fn.vars[v].type.scalar;
    if (e.kind == ExprKind::CompoundAssign)
      return (e.binaryOp == BinaryOp::Add || e.binaryOp == BinaryOp::Sub) && e.computeType == t ? std::optional(v)
                                                                                                : std::nullopt;
    if (e.kind != ExprKind::Assign) return std::nullopt;
    const Expr& r = *e.operands[1];
    if (r.kind != ExprKind::Binary || r.type.scalar != t ||
        (r.binaryOp != BinaryOp::Add && r.binaryOp != BinaryOp::Sub))
      return std::nullopt;
    const Expr& l = *r.operands[0];
    if (l.kind == ExprKind::VarRef && l.var == v) return v;
    const Expr& rr = *r.operands[1];
    if (r.binaryOp == BinaryOp::Add && rr.kind == ExprKind::VarRef && rr.var == v) return v;
    return std::nullopt;
  };
  forEachStmt(body, [&](const Stmt& s) {
    if (s.kind != StmtKind::ExprStmt || !s.expr) return;
    if (std::optional<VarId> v = accumulation(*s.expr)) {
      if (local.count(*v) || *v < fn.numParams) return;
      accumulations.insert(s.expr.get());
      sums.insert(*v);
      accounted[*v] += s.expr->kind == ExprKind::Assign ? 2 : 1;
    }
  });
  std::map<VarId, unsigned> seen;
  forEachExpr(body, [&](const Expr& e) {
    if (e.kind == ExprKind::VarRef) ++seen[e.var];
    if (!reason.empty()) return;
    const Expr* t = assignmentTarget(e);
    if (!t || t->kind != ExprKind::VarRef || local.count(t->var) || t->var == a.counter) return;
    const VarId v = t->var;
    if (!accumulations.count(&e))
      reason = v < fn.numParams ? "the parameter " + nameOf(v) + " is assigned in the loop"
                                : nameOf(v) + " carries a value from one " + nameOf(a.counter) +
                                      " to the next other than a sum (s += term)";
    else if (!isFloating(fn.vars[v].type.scalar))
      reason = "the sum " + nameOf(v) + " is not a float or double (integer sums keep their order)";
  });
  if (!reason.empty()) return std::nullopt;
  for (VarId v : sums)
    if (seen[v] != accounted[v]) {
      reason = "the sum " + nameOf(v) + " is read in the loop other than by its own additions";
      return std::nullopt;
    }
  if (sums.empty()) {
    reason = "the loop adds to no sum";
    return std::nullopt;
  }
  return std::vector<VarId>(sums.begin(), sums.end());
}

bool isSymmetric(const Function& fn, const LoopAnalysis& analysis) {
  if (fn.mode != IndexMode::Grid2D || fn.indexParams.size() < 2 || !fn.body || fn.returnType.isVoid()) return false;
  const VarId i = static_cast<VarId>(fn.indexParams[0]), j = static_cast<VarId>(fn.indexParams[1]);
  if (!(fn.vars[i].type == fn.vars[j].type)) return false;
  SwapCompare compare{i, j, {}};
  for (VarId v : analysis.inlined)
    for (const Stmt* s : analysis.prologue)
      if (s->kind == StmtKind::Decl && s->var == v && s->expr) compare.inlined[v] = s->expr.get();
  return compare.stmt(*fn.body, *fn.body);
}

}  // namespace culift::codegen

// ---- the plan ----------------------------------------------------------------------------------

namespace culift {

static void planLoopsHere(Module& module);

// Why a kernel's loop keeps running per thread because of references ("" when none is involved):
// a write through a reference reaches a variable the analysis would not see written, so a
// function that declares one, or passes arguments to a callee's reference parameters, is left as
// written.
static std::string referenceReason(const Module& module, const Function& f) {
  for (const Var& v : f.vars)
    if (v.isReference()) return "the function uses the reference '" + v.name + "'";
  std::string reason;
  visitExprs(*f.body, [&](const Expr& e) {
    if (e.kind == ExprKind::Call && e.callee < module.functions.size() && reason.empty()) {
      const Function& callee = module.functions[e.callee];
      for (unsigned p = 0; p < callee.numParams; ++p)
        if (callee.vars[p].isReference())
          reason = "a call passes '" + callee.name + "' a reference ('" + callee.vars[p].name + "')";
    }
    return reason.empty();
  });
  return reason;
}

void planLoops(Module& module) {
  // The analysis recurses as deep as the user nested the body: on culift's stack.
  runOnCuliftStack([&] { planLoopsHere(module); });
}

void planLoopsHere(Module& module) {
  using codegen::LoopAnalysis;
  for (Function& f : module.functions) {
    f.loopPlan = LoopPlan::PerThread;
    f.loopPlanReason.clear();
    f.planEntries.clear();
    f.reassociatedSums.clear();
    if (!f.isKernel() || !f.body) continue;
    std::string reason;
    std::optional<LoopAnalysis> a = codegen::analyzeLoop(f, reason);
    if (a) {
      if (std::string why = referenceReason(module, f); !why.empty()) {
        a.reset();
        reason = std::move(why);
      } else if (f.resultRecord) {
        a.reset();
        reason = "it returns a struct (the entries store one value per output)";
      }
    }
    if (!a) {
      f.loopPlanReason = std::move(reason);
      continue;
    }
    auto entry = [&](const std::string& suffix, LoopPlan plan, unsigned rows, unsigned cols, unsigned threads,
                     bool square) {
      PlanEntry e;
      e.kernelName = f.name + suffix;
      e.plan = plan;
      e.tileRows = rows;
      e.tileCols = cols;
      e.threads = threads;
      e.squareOnly = square;
      e.mapping = blockMapping(plan);
      f.planEntries.push_back(std::move(e));
    };
    if (f.mode == IndexMode::Grid1D && f.reassociate) {
      // A warp per output, 8 outputs per block of 256 threads, where the loop only adds to sums.
      std::string why;
      if (std::optional<std::vector<VarId>> sums = codegen::reassociableSums(f, *a, why)) {
        f.loopPlan = LoopPlan::ReassociatingRowReduction;
        f.reassociatedSums = std::move(*sums);
        entry("_warp", LoopPlan::ReassociatingRowReduction, 8, 1, 256, false);
        continue;
      }
      f.loopPlanReason = "not reassociated: " + why;
    }
    if (f.mode == IndexMode::Grid1D) {
      // Slices of rows are copied 16 bytes at a time: every staged array must step one element
      // per k, and all of them the same number of bytes.
      std::string why;
      for (const codegen::StagedOperand& o : a->operands) {
        const std::string array = f.vars[o.array].name;
        if (!o.unitStride)
          why = o.kContiguous ? array + " is not read at consecutive k (the index is not k plus terms without k)"
                              : "consecutive " + f.vars[f.indexParams[0]].name + " read neighbouring elements of " +
                                    array + " already (one thread per output is coalesced)";
        else if (byteSize(o.element) != byteSize(a->operands[0].element))
          why = "the staged arrays " + f.vars[a->operands[0].array].name + " and " + array +
                " have elements of different sizes";
        if (!why.empty()) break;
      }
      if (!why.empty()) {
        f.loopPlanReason = std::move(why);
        continue;
      }
      if (codegen::rowReductionStages(a->operands.size(), codegen::rowReductionVectors(*a).size(), 32) < 3) {
        f.loopPlanReason = std::to_string(a->operands.size()) + " arrays would be staged (at most 2 fit)";
        continue;
      }
      // 32 rows per block, or 8 where rows are too few to give every multiprocessor a block.
      f.loopPlan = LoopPlan::RowReduction;
      entry("_rows32", LoopPlan::RowReduction, 32, 1, 256, false);
      entry("_rows8", LoopPlan::RowReduction, 8, 1, 256, false);
      continue;
    }
    // 2-D: register tiles of 8 x 8 (128 x 128 per block) and 4 x 4 (64 x 64), as the values
    // live across the loop and the staged tiles allow.
    unsigned widest = 0;
    for (const codegen::StagedOperand& o : a->operands) widest = std::max(widest, byteSize(o.element));
    auto sharedBytes = [&](unsigned tile) {
      size_t bytes = 0;
      for (const codegen::StagedOperand& o : a->operands)
        bytes += codegen::tileStages(tile) * codegen::tileStep(tile, widest) * (tile + codegen::kTilePad) *
                 byteSize(o.element);
      return bytes;
    };
    const size_t live = a->live.size() + a->assignedParams.size();
    std::vector<unsigned> tiles;
    if (live * 64 + a->operands.size() * 8 <= 160 && sharedBytes(128) <= 48 * 1024) tiles.push_back(128);
    if (live * 16 <= 128 && sharedBytes(64) <= 48 * 1024) tiles.push_back(64);
    if (tiles.empty()) {
      f.loopPlanReason = std::to_string(live) + " values live across the loop and " +
                         std::to_string(a->operands.size()) + " staged arrays do not fit a register tile";
      continue;
    }
    const bool symmetric = codegen::isSymmetric(f, *a);
    f.loopPlan = symmetric ? LoopPlan::SymmetricTiledContraction : LoopPlan::TiledContraction;
    if (symmetric)
      for (unsigned t : tiles) entry("_sym" + std::to_string(t), LoopPlan::SymmetricTiledContraction, t, t, 256, true);
    for (unsigned t : tiles) entry("_tiled" + std::to_string(t), LoopPlan::TiledContraction, t, t, 256, false);
  }
}

}  // namespace culift
