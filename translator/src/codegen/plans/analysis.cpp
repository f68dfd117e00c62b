// The shared analysis: the reads of every kernel (analyzeKernel) and the legality of its loop
// (analyzeLoop), shaped like a vectorizer's legality step: "may a plan lift this loop?", and
// when not, a remark saying why (Function::loopPlanReason, shown by `culift ast`).
#include "analysis.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "ast_match.hpp"

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
  kDepBatch = 64,   // 3-D: the batch index, fixed for a block's outputs
};

class Analyzer {
 public:
  explicit Analyzer(const Function& fn) : fn_(fn) {
    // A 3-D kernel's loop is planned per batch: its first index is the batch, the others i and j.
    const unsigned first = fn.mode == IndexMode::Grid3D && !fn.indexParams.empty() ? 1 : 0;
    if (first) a_.batch = static_cast<VarId>(fn.indexParams[0]);
    for (unsigned a = 0; first + a < fn.indexParams.size() && a < 2; ++a)
      axisVar_[a] = static_cast<VarId>(fn.indexParams[first + a]);
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
  bool findLoop(std::string& reason);
  bool checkVars(std::string& reason);
  bool checkHeader(std::string& reason);
  bool checkReads(std::string& reason);
  void collectLive();
  std::string varName(VarId v) const { return v < fn_.vars.size() ? fn_.vars[v].name : "?"; }
  unsigned deps(const Expr& e, unsigned depth = 0);
  std::optional<std::int64_t> coefficient(const Expr& e, VarId var, unsigned depth = 0);
  bool affine(const Expr& e, VarId var, VarId other, unsigned depth = 0);
  bool mayUse(const Expr& e, VarId var);
  bool checkBody(const Stmt& body, std::string& reason);
  bool collectReads(const Stmt& s, bool conditional, std::string& reason);
  bool collectReads(const Expr& e, bool conditional, std::string& reason);
  bool collectWrite(const Expr& e, bool conditional, std::string& reason);
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
      if (v == a_.batch) return kDepBatch;
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

// Whether e uses var or a local that may stand for it (conservatively, any inlined local).
bool Analyzer::mayUse(const Expr& e, VarId var) {
  bool uses = false;
  forEachExpr(e, [&](const Expr& y) {
    uses = uses || (y.kind == ExprKind::VarRef && (y.var == var || inlined_.count(y.var)));
  });
  return uses;
}

// d(e)/d(var) when it is a constant (e affine in var with a literal coefficient).
std::optional<std::int64_t> Analyzer::coefficient(const Expr& e, VarId var, unsigned depth) {
  if (depth > 64) return std::nullopt;
  const Expr& s = stripCasts(e);
  if (!mayUse(s, var)) return 0;
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

// e = c + a * var where a uses neither var nor `other` (nor a local that may stand for either)
// and c does not use var: a step of var moves e by the same amount at every var and other.
bool Analyzer::affine(const Expr& e, VarId var, VarId other, unsigned depth) {
  if (depth > 64) return false;
  const Expr& s = stripCasts(e);
  if (!mayUse(s, var)) return true;
  switch (s.kind) {
    case ExprKind::VarRef: {
      if (s.var == var) return true;
      auto it = prologueDecls_.find(s.var);
      return it != prologueDecls_.end() && inlined_.count(s.var) && affine(*it->second->expr, var, other, depth + 1);
    }
    case ExprKind::Binary: {
      const Expr& l = *s.operands[0];
      const Expr& r = *s.operands[1];
      if (s.binaryOp == BinaryOp::Add || s.binaryOp == BinaryOp::Sub)
        return affine(l, var, other, depth + 1) && affine(r, var, other, depth + 1);
      if (s.binaryOp == BinaryOp::Mul)
        return (!mayUse(l, var) && !mayUse(l, other) && affine(r, var, other, depth + 1)) ||
               (!mayUse(r, var) && !mayUse(r, other) && affine(l, var, other, depth + 1));
      return false;
    }
    default: return false;
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
                 t->operands[0]->var < fn_.numParams && fn_.mode != IndexMode::Grid1D) {
        // 1-D: collectReads describes the write (LoopAnalysis::writes) or says why it cannot.
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
  o.axisStride = cr;
  o.affine = affine(index, a_.counter, axisVar_[axis]) && affine(index, axisVar_[axis], a_.counter);
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

// A 1-D loop's plain assignment to an element of an array parameter: one of LoopAnalysis::writes
// where it is written on every step at (i, k), one element per step of k.
bool Analyzer::collectWrite(const Expr& e, bool conditional, std::string& reason) {
  const Expr& target = *e.operands[0];
  const std::string array = varName(target.operands[0]->var);
  if (conditional) {
    reason = array + " is written on some steps of the loop only (a scan writes every step)";
    return false;
  }
  culprit_.clear();
  const unsigned d = deps(*target.operands[1]);
  const auto ck = coefficient(*target.operands[1], a_.counter);
  if ((d & (kDepVarying | kDepArray | kDepEffect)) || !(d & kDepI) || !ck || *ck != 1) {
    reason = array + " is written in the loop at an index other than one element per step of " + varName(a_.counter) +
             " along a row of " + varName(axisVar_[0]) + " (" + array + "[" + varName(axisVar_[0]) + " * n + " +
             varName(a_.counter) + "])";
    return false;
  }
  const size_t before = a_.writes.size();
  addRead(a_.writes, target, 0);
  for (size_t w = 0; w + 1 < a_.writes.size() && a_.writes.size() > before; ++w)
    if (a_.writes[w].array == target.operands[0]->var) {
      reason = array + " is written at two indices in the loop";
      return false;
    }
  return collectReads(*e.operands[1], conditional, reason);
}

bool Analyzer::collectReads(const Expr& e, bool conditional, std::string& reason) {
  if (e.kind == ExprKind::Assign && fn_.mode == IndexMode::Grid1D && e.operands.size() == 2 &&
      e.operands[0]->kind == ExprKind::Subscript && e.operands[0]->operands.size() == 2 &&
      e.operands[0]->operands[0]->kind == ExprKind::VarRef && e.operands[0]->operands[0]->var < fn_.numParams &&
      fn_.vars[e.operands[0]->operands[0]->var].type.isPointer())
    return collectWrite(e, conditional, reason);
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
      if (a_.bothAxesReason.empty())
        a_.bothAxesReason = "the index of " + varName(array) + " depends on both " + varName(axisVar_[0]) + " and " +
                            varName(axisVar_[1]);
      // One element per output and k: the loads a column reduction hoists; read as written by
      // every other entry.
      if ((d & kDepK) && !conditional) {
        addRead(a_.outputReads, e, 1);
        return true;
      }
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

// The one loop of the body, a for loop at its top level, and the statements before and after it.
bool Analyzer::findLoop(std::string& reason) {
  const Stmt& body = *fn_.body;
  unsigned loops = 0;
  forEachStmt(body, [&](const Stmt& s) { loops += isLoop(s) ? 1 : 0; });
  if (loops == 0) return false;
  if (fn_.mode != IndexMode::Grid1D && fn_.mode != IndexMode::Grid2D && fn_.mode != IndexMode::Grid3D) {
    reason = "loops of element-wise kernels run per thread";
    return false;
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
    return false;
  }
  a_.loop = top[at];
  a_.prologue.assign(top.begin(), top.begin() + static_cast<std::ptrdiff_t>(at));
  a_.epilogue.assign(top.begin() + static_cast<std::ptrdiff_t>(at) + 1, top.end());
  return true;
}

// No local array; index parameters never assigned; the scalar parameters the body assigns and the
// locals the prologue declares.
bool Analyzer::checkVars(std::string& reason) {
  for (VarId v = 0; v < fn_.vars.size(); ++v) {
    if (fn_.vars[v].type.isArray()) {
      reason = "the local array " + varName(v) + " would be needed per output";
      return false;
    }
    if (v < fn_.numParams && assignments_.count(v) && (v == axisVar_[0] || v == axisVar_[1] || v == a_.batch)) {
      reason = "the index parameter " + varName(v) + " is assigned";
      return false;
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
  return true;
}

// for (T k = lo; k < hi; ++k), lo and hi the same for every output.
bool Analyzer::checkHeader(std::string& reason) {
  const Stmt& loop = *a_.loop;
  const Stmt* init = loop.init.get();
  if (init && init->kind == StmtKind::Block && !init->scoped && init->stmts.size() == 1) init = init->stmts[0].get();
  if (!init || init->kind != StmtKind::Decl || !init->expr || !fn_.vars[init->var].type.isValue() ||
      !isInteger(fn_.vars[init->var].type.scalar)) {
    reason = "the loop does not declare an integer counter (for (int k = lo; k < hi; ++k))";
    return false;
  }
  a_.counter = init->var;
  a_.lowerBound = init->expr.get();
  const std::string k = varName(a_.counter);
  const Expr* cond = loop.cond.get();
  if (!cond || cond->kind != ExprKind::Binary || (cond->binaryOp != BinaryOp::Lt && cond->binaryOp != BinaryOp::Le) ||
      stripCasts(*cond->operands[0]).kind != ExprKind::VarRef || stripCasts(*cond->operands[0]).var != a_.counter) {
    reason = "the loop condition is not " + k + " < bound or " + k + " <= bound";
    return false;
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
    return false;
  }
  for (const Expr* bound : {a_.lowerBound, a_.upperBound}) {
    culprit_.clear();
    const unsigned d = deps(*bound);
    const char* which = bound == a_.lowerBound ? "start" : "bound";
    if (d & kDepI) reason = std::string("the ") + which + " of " + k + " depends on " + varName(axisVar_[0]);
    else if (d & kDepJ) reason = std::string("the ") + which + " of " + k + " depends on " + varName(axisVar_[1]);
    else if (d & (kDepVarying | kDepArray | kDepEffect))
      reason = std::string("the ") + which + " of " + k + " depends on " + culprit_;
    if (!reason.empty()) return false;
  }
  return true;
}

// The body keeps to what an entry can run, and reads some array along a thread index and k.
bool Analyzer::checkReads(std::string& reason) {
  const Stmt& body = *a_.loop->body;
  if (!checkBody(body, reason) || !collectReads(body, false, reason)) return false;
  if (a_.operands.empty() && a_.outputReads.empty()) {
    if (!a_.bothAxesReason.empty()) {
      reason = a_.bothAxesReason;
      return false;
    }
    const std::string k = varName(a_.counter);
    reason = fn_.mode == IndexMode::Grid1D
                 ? "no array read in the loop is indexed by (" + varName(axisVar_[0]) + ", " + k + ")"
                 : "no array read in the loop is indexed by (" + varName(axisVar_[0]) + ", " + k + ") or (" +
                       varName(axisVar_[1]) + ", " + k + ")";
    if (a_.batch != kNone) reason += " (" + varName(a_.batch) + ", the first index, is the batch)";
    return false;
  }
  a_.inlined.assign(inlined_.begin(), inlined_.end());
  return true;
}

// Locals still needed per output: used by the loop body (beyond the staged reads' indices) or
// after the loop.
void Analyzer::collectLive() {
  std::set<const Expr*> staged;
  for (const StagedOperand& o : a_.operands) staged.insert(o.reads.begin(), o.reads.end());
  for (const StagedOperand& o : a_.outputReads) staged.insert(o.reads.begin(), o.reads.end());
  for (const StagedOperand& o : a_.writes) staged.insert(o.reads.begin(), o.reads.end());
  std::set<VarId> used;
  auto use = [&](const Expr& e) {
    if (staged.count(&e)) return false;
    if (e.kind == ExprKind::VarRef) used.insert(e.var);
    return true;
  };
  visitExprs(*a_.loop->body, use);
  for (const Stmt* s : a_.epilogue) visitExprs(*s, use);
  // What the body assigns with a plain `=`, and what it reads (every other mention).
  std::set<VarId> assigned, read;
  std::set<const Expr*> targets;
  forEachExpr(*a_.loop->body, [&](const Expr& e) {
    if (e.kind != ExprKind::Assign) return;
    const Expr& t = stripCasts(*e.operands[0]);
    if (t.kind != ExprKind::VarRef) return;
    assigned.insert(t.var);
    targets.insert(&t);
  });
  forEachExpr(*a_.loop->body, [&](const Expr& e) {
    if (e.kind == ExprKind::VarRef && !targets.count(&e)) read.insert(e.var);
  });
  for (VarId v : a_.carried) {
    if (!used.count(v)) continue;
    a_.live.push_back(v);
    if (assigned.count(v) && !read.count(v)) a_.overwritten.push_back(v);
  }
}

std::optional<LoopAnalysis> Analyzer::run(std::string& reason) {
  reason.clear();
  if (!findLoop(reason) || !checkVars(reason) || !checkHeader(reason) || !checkReads(reason)) return std::nullopt;
  collectLive();
  if (!a_.writes.empty()) a_.writesReason = varName(a_.writes[0].array) + " is written in the loop";
  return std::move(a_);
}

}  // namespace

std::optional<LoopAnalysis> analyzeLoop(const Function& fn, std::string& reason) {
  reason.clear();
  if (!fn.isKernel() || !fn.body) return std::nullopt;
  Analyzer analyzer(fn);
  return analyzer.run(reason);
}

// ---- the reads of every kernel ---------------------------------------------------------------

namespace {

class ReadCollector {
 public:
  explicit ReadCollector(const Function& fn) : fn_(fn) {
    for (unsigned a = 0; a < fn.indexParams.size() && a < 3; ++a) axis_[a] = static_cast<VarId>(fn.indexParams[a]);
    const std::set<VarId> assigned = assignedVars(*fn.body);
    forEachStmt(*fn.body, [&](const Stmt& s) {
      if (s.kind == StmtKind::Decl && s.expr && !assigned.count(s.var) && fn.vars[s.var].type.isValue())
        fixed_[s.var] = s.expr.get();
    });
    for (VarId v : assigned) changing_.insert(v);
  }

  std::vector<ArrayRead> collect() {
    std::set<const Expr*> inLoop;  // the expressions inside a loop of the body
    forEachStmt(*fn_.body, [&](const Stmt& s) {
      if (isLoop(s)) forEachExpr(s, [&](const Expr& e) { inLoop.insert(&e); });
    });
    std::set<const Expr*> stores;  // elements assignments write
    std::vector<ArrayRead> reads;
    forEachExpr(*fn_.body, [&](const Expr& x) {
      // Outermost first: an assignment is seen before the element it writes, which is no read.
      if (x.kind == ExprKind::Assign && !x.operands.empty()) stores.insert(x.operands[0].get());
      if (stores.count(&x) || x.kind != ExprKind::Subscript || x.operands.size() != 2 ||
          x.operands[0]->kind != ExprKind::VarRef)
        return;
      const VarId array = x.operands[0]->var;
      if (array >= fn_.numParams || !fn_.vars[array].type.isPointer()) return;
      ArrayRead r;
      r.array = array;
      r.read = &x;
      r.index = x.operands[1].get();
      r.inLoop = inLoop.count(&x) != 0;
      split(*r.index, false, r, 0);
      for (unsigned a = 0; a < 3; ++a)
        if (axis_[a] != kNone) r.stride[a] = coefficient(*r.index, axis_[a], 0);
      reads.push_back(std::move(r));
    });
    return reads;
  }

 private:
  // The index's terms through + and -: literals into the offset, the rest into the base.
  void split(const Expr& e, bool negated, ArrayRead& r, unsigned depth) {
    const Expr& s = stripCasts(e);
    if (depth < 64 && s.kind == ExprKind::Binary && (s.binaryOp == BinaryOp::Add || s.binaryOp == BinaryOp::Sub)) {
      split(*s.operands[0], negated, r, depth + 1);
      split(*s.operands[1], s.binaryOp == BinaryOp::Sub ? !negated : negated, r, depth + 1);
    } else if (s.kind == ExprKind::IntLiteral) {
      const auto v = static_cast<std::int64_t>(s.intBits);
      r.offset += negated ? -v : v;
    } else {
      r.base.push_back({&s, negated});
    }
  }
  // d(e)/d(var) where it is a literal: e affine in var through +, -, * by a literal and the
  // locals set once from such expressions.
  std::optional<std::int64_t> coefficient(const Expr& e, VarId var, unsigned depth) {
    if (depth > 64) return std::nullopt;
    const Expr& s = stripCasts(e);
    switch (s.kind) {
      case ExprKind::IntLiteral: return 0;
      case ExprKind::VarRef: {
        if (s.var == var) return 1;
        if (auto it = fixed_.find(s.var); it != fixed_.end()) return coefficient(*it->second, var, depth + 1);
        if (changing_.count(s.var) || s.var >= fn_.numParams) return std::nullopt;
        return 0;  // a parameter no statement assigns
      }
      case ExprKind::Binary: {
        const auto l = coefficient(*s.operands[0], var, depth + 1), r = coefficient(*s.operands[1], var, depth + 1);
        if (!l || !r) return std::nullopt;
        if (s.binaryOp == BinaryOp::Add) return *l + *r;
        if (s.binaryOp == BinaryOp::Sub) return *l - *r;
        if (s.binaryOp != BinaryOp::Mul) return *l == 0 && *r == 0 ? std::optional<std::int64_t>(0) : std::nullopt;
        const Expr& sl = stripCasts(*s.operands[0]);
        const Expr& sr = stripCasts(*s.operands[1]);
        if (*r == 0 && sr.kind == ExprKind::IntLiteral) return *l * static_cast<std::int64_t>(sr.intBits);
        if (*l == 0 && sl.kind == ExprKind::IntLiteral) return *r * static_cast<std::int64_t>(sl.intBits);
        return *l == 0 && *r == 0 ? std::optional<std::int64_t>(0) : std::nullopt;
      }
      default: return std::nullopt;
    }
  }

  const Function& fn_;
  VarId axis_[3] = {kNone, kNone, kNone};
  std::map<VarId, const Expr*> fixed_;  // locals declared with an initializer and never assigned
  std::set<VarId> changing_;            // variables some statement assigns
};

}  // namespace

bool sameBase(const ArrayRead& a, const ArrayRead& b) {
  if (a.array != b.array || a.base.size() != b.base.size()) return false;
  const SwapCompare same{kNone, kNone, {}};
  std::vector<bool> used(b.base.size(), false);
  for (const ArrayRead::Term& t : a.base) {
    bool matched = false;
    for (size_t k = 0; k < b.base.size() && !matched; ++k)
      if (!used[k] && b.base[k].negated == t.negated && same.expr(*t.expr, *b.base[k].expr)) used[k] = matched = true;
    if (!matched) return false;
  }
  return true;
}

KernelAnalysis analyzeKernel(const Function& fn) {
  KernelAnalysis k;
  if (!fn.isKernel() || !fn.body) return k;
  k.reads = ReadCollector(fn).collect();
  k.loop = analyzeLoop(fn, k.loopReason);
  return k;
}

}  // namespace culift::codegen
