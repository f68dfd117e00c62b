// Row statistics in one pass (docs/loop-plans.md#row-statistics-in-one-pass): for two 1-D kernels
// of a module that take the same parameters and reduce the same rows with the same loop (a row sum
// and a row sum of squares), a third kernel that runs both bodies in that one loop and writes both
// results, so that a pipeline launching the two side by side reads each row once
// (rt::Pipeline). Each output keeps the bits of its own kernel: an exact plan adds in the loop's
// order whatever else the loop does, and every reassociating 1-D plan adds in the one documented
// order (culift/ast/reassociation.hpp) per sum, however many sums the loop has. A candidate whose
// plan would not keep those bits (a sum reassociated in one kernel but not in the fused one) is
// dropped.
#include "fused_statistics.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "plans/analysis.hpp"
#include "plans/ast_match.hpp"

namespace culift::codegen {
namespace {

// ---- copies of a tree with its variables renumbered ------------------------------------------

struct Renumber {
  std::vector<VarId> map;  // old VarId -> new (kNone: not expected in the tree)

  VarId var(VarId v) const {
    if (v == kNone) return kNone;
    if (v >= map.size() || map[v] == kNone) throw std::logic_error("fused statistics: a variable without a copy");
    return map[v];
  }

  ExprPtr expr(const Expr* e) const {
    if (!e) return nullptr;
    auto c = std::make_unique<Expr>(e->kind, e->type, e->range);
    c->intBits = e->intBits;
    c->floatValue = e->floatValue;
    c->var = e->kind == ExprKind::VarRef ? var(e->var) : e->var;
    c->callee = e->callee;
    c->math = e->math;
    c->unaryOp = e->unaryOp;
    c->binaryOp = e->binaryOp;
    c->incDecOp = e->incDecOp;
    c->atomicOp = e->atomicOp;
    c->computeType = e->computeType;
    c->explicitCast = e->explicitCast;
    c->text = e->text;
    for (const ExprPtr& o : e->operands) c->operands.push_back(expr(o.get()));
    return c;
  }

  StmtPtr stmt(const Stmt* s) const {
    if (!s) return nullptr;
    auto c = std::make_unique<Stmt>(s->kind, s->range);
    c->var = s->kind == StmtKind::Decl ? var(s->var) : s->var;
    c->cond = expr(s->cond.get());
    c->expr = expr(s->expr.get());
    for (const ExprPtr& e : s->inits) c->inits.push_back(expr(e.get()));
    c->arrayInitialized = s->arrayInitialized;
    c->init = stmt(s->init.get());
    c->then = stmt(s->then.get());
    c->otherwise = stmt(s->otherwise.get());
    c->body = stmt(s->body.get());
    for (const StmtPtr& b : s->stmts) c->stmts.push_back(stmt(b.get()));
    c->scoped = s->scoped;
    c->caseValue = s->caseValue;
    return c;
  }
};

// ---- which kernels take part -----------------------------------------------------------------

// A kernel's parts when it may take part: 1-D, planned, returning one scalar from a last top-level
// `return`, with no other return, writing no array (nor through a call) and no parameter, so that
// running another kernel's body beside it changes neither. Being planned, it takes no reference,
// updates nothing atomically and returns no struct: the planner runs those per thread.
struct Part {
  const Function* fn = nullptr;
  LoopAnalysis loop;
  const Stmt* result = nullptr;  // the final `return e;`
};

bool writesNothing(const Function& f) {
  if (!arrayWriteReason({f.body.get()}, "its statements").empty()) return false;
  bool ok = true;
  forEachExpr(*f.body, [&](const Expr& e) {
    const Expr* t = assignmentTarget(e);
    if (t && t->kind == ExprKind::VarRef && t->var < f.numParams) ok = false;
  });
  return ok;
}

std::optional<Part> partOf(const Function& f) {
  if (f.mode != IndexMode::Grid1D || !f.fusedOf.empty() || !f.body || f.loopPlan == LoopPlan::PerThread ||
      !f.returnType.isValue() || f.returnType.isVoid())
    return std::nullopt;
  // Arrays of structs: their layouts are the front end's notes, which the copy would not carry.
  if (!f.recordParams.empty()) return std::nullopt;
  for (const KernelParam& p : f.signature.params)
    if (p.record) return std::nullopt;
  std::string why;
  std::optional<LoopAnalysis> a = analyzeLoop(f, why);
  if (!a || a->epilogue.empty() || !a->loop->init || a->loop->init->kind != StmtKind::Decl) return std::nullopt;
  const Stmt* last = a->epilogue.back();
  if (last->kind != StmtKind::Return || !last->expr) return std::nullopt;
  unsigned returns = 0;
  forEachStmt(*f.body, [&](const Stmt& s) { returns += s.kind == StmtKind::Return; });
  if (returns != 1 || !writesNothing(f)) return std::nullopt;
  return Part{&f, std::move(*a), last};
}

// Whether g's parameters are f's (types, bindings and the index at the same positions).
bool sameParameters(const Function& f, const Function& g) {
  if (f.numParams != g.numParams || f.indexParams != g.indexParams || f.reassociate != g.reassociate) return false;
  for (unsigned p = 0; p < f.numParams; ++p)
    if (!(f.vars[p].type == g.vars[p].type) || f.vars[p].binding != g.vars[p].binding) return false;
  return true;
}

// ---- the fused kernel ------------------------------------------------------------------------

ExprPtr varRef(const Function& fn, VarId v, const SourceRange& r) {
  auto e = std::make_unique<Expr>(ExprKind::VarRef, fn.vars[v].type, r);
  e->var = v;
  return e;
}

// `out[i] = value;`, the value converted to out's element type as a return converts it.
StmtPtr store(const Function& fn, VarId out, VarId index, ExprPtr value) {
  const SourceRange r = value->range;
  const Scalar s = fn.vars[out].type.scalar;
  if (!(value->type == Type::value(s))) {
    auto cast = std::make_unique<Expr>(ExprKind::Cast, Type::value(s), r);
    cast->operands.push_back(std::move(value));
    value = std::move(cast);
  }
  auto element = std::make_unique<Expr>(ExprKind::Subscript, Type::value(s), r);
  element->operands.push_back(varRef(fn, out, r));
  element->operands.push_back(varRef(fn, index, r));
  auto assign = std::make_unique<Expr>(ExprKind::Assign, Type::value(s), r);
  assign->operands.push_back(std::move(element));
  assign->operands.push_back(std::move(value));
  auto stmt = std::make_unique<Stmt>(StmtKind::ExprStmt, r);
  stmt->expr = std::move(assign);
  return stmt;
}

// The fused kernel of parts a and b, or nothing where their loops differ or a name is taken.
std::optional<FusedCandidate> fuse(const Module& module, const Part& a, const Part& b) {
  const Function& f = *a.fn;
  const Function& g = *b.fn;
  FusedCandidate c;
  Function& fused = c.fused;
  fused.name = f.name + "_" + g.name + "_fused";
  if (module.find(fused.name)) return std::nullopt;
  fused.returnType = Type::value(Scalar::Void);
  fused.range = f.range;
  fused.annotated = true;
  fused.indexNames = f.indexNames;
  fused.reassociate = f.reassociate;
  fused.fusedOf = {f.name, g.name};

  // Variables: f's parameters, the two results, f's locals, then g's (its counter is f's).
  std::set<std::string> taken;
  auto add = [&](Var v) {
    const std::string base = v.name;
    for (unsigned n = 2; taken.count(v.name); ++n) v.name = base + "_" + std::to_string(n);
    taken.insert(v.name);
    fused.vars.push_back(std::move(v));
    return static_cast<VarId>(fused.vars.size() - 1);
  };
  Renumber fm{std::vector<VarId>(f.vars.size(), kNone)}, gm{std::vector<VarId>(g.vars.size(), kNone)};
  for (unsigned p = 0; p < f.numParams; ++p) fm.map[p] = gm.map[p] = add(f.vars[p]);
  const auto result = [&](const Function& of) {
    Var v;
    v.name = of.name + "_out";
    v.type = Type::pointer(of.returnType.scalar, false);
    v.range = of.range;
    v.isParam = true;
    if (taken.count(v.name)) return kNone;
    return add(std::move(v));
  };
  const VarId outF = result(f), outG = result(g);
  if (outF == kNone || outG == kNone) return std::nullopt;
  fused.numParams = f.numParams + 2;
  for (VarId v = f.numParams; v < f.vars.size(); ++v) fm.map[v] = add(f.vars[v]);
  gm.map[b.loop.counter] = fm.map[a.loop.counter];
  for (VarId v = g.numParams; v < g.vars.size(); ++v) {
    if (v == b.loop.counter) continue;
    Var copy = g.vars[v];
    if (taken.count(copy.name)) copy.name += "_" + g.name;
    gm.map[v] = add(std::move(copy));
  }

  // The same loop: g's header in f's variables equals f's.
  const Stmt& lf = *a.loop.loop;
  const Stmt& lg = *b.loop.loop;
  const SwapCompare same{kNone, kNone, {}};
  auto sameExpr = [&](const Expr* x, const Expr* y) {
    if (!x || !y) return x == y;
    return same.expr(*fm.expr(x), *gm.expr(y));
  };
  if (!(f.vars[a.loop.counter].type == g.vars[b.loop.counter].type) ||
      !sameExpr(lf.init->expr.get(), lg.init->expr.get()) || !sameExpr(lf.cond.get(), lg.cond.get()) ||
      !sameExpr(lf.expr.get(), lg.expr.get()))
    return std::nullopt;

  auto body = std::make_unique<Stmt>(StmtKind::Block, f.body->range);
  for (const Stmt* s : a.loop.prologue) body->stmts.push_back(fm.stmt(s));
  for (const Stmt* s : b.loop.prologue) body->stmts.push_back(gm.stmt(s));
  StmtPtr loop = std::make_unique<Stmt>(StmtKind::For, lf.range);
  loop->init = fm.stmt(lf.init.get());
  loop->cond = fm.expr(lf.cond.get());
  loop->expr = fm.expr(lf.expr.get());
  loop->body = std::make_unique<Stmt>(StmtKind::Block, lf.body->range);
  loop->body->stmts.push_back(fm.stmt(lf.body.get()));
  loop->body->stmts.push_back(gm.stmt(lg.body.get()));
  body->stmts.push_back(std::move(loop));
  const VarId index = static_cast<VarId>(f.indexParams[0]);
  for (const Stmt* s : a.loop.epilogue)
    body->stmts.push_back(s == a.result ? store(fused, outF, index, fm.expr(s->expr.get())) : fm.stmt(s));
  for (const Stmt* s : b.loop.epilogue)
    body->stmts.push_back(s == b.result ? store(fused, outG, index, gm.expr(s->expr.get())) : gm.stmt(s));
  fused.body = std::move(body);

  for (VarId v : f.reassociatedSums) c.sums.push_back(fm.var(v));
  for (VarId v : g.reassociatedSums) c.sums.push_back(gm.var(v));
  std::sort(c.sums.begin(), c.sums.end());
  return c;
}

}  // namespace

std::vector<FusedCandidate> fusedRowStatistics(const Module& module) {
  std::vector<Part> parts;
  for (const Function& f : module.functions)
    if (std::optional<Part> p = partOf(f)) parts.push_back(std::move(*p));
  std::vector<FusedCandidate> out;
  for (size_t x = 0; x < parts.size() && out.size() < kMaxFusedStatistics; ++x)
    for (size_t y = x + 1; y < parts.size() && out.size() < kMaxFusedStatistics; ++y)
      if (sameParameters(*parts[x].fn, *parts[y].fn)) {
        std::optional<FusedCandidate> c;
        try {
          c = fuse(module, parts[x], parts[y]);
        } catch (const std::logic_error&) {  // a tree the copy cannot renumber: no fused kernel
        }
        if (c) out.push_back(std::move(*c));
      }
  return out;
}

bool keepsBits(const FusedCandidate& c) {
  if (c.fused.loopPlan == LoopPlan::PerThread) return false;
  std::vector<VarId> sums = c.fused.reassociatedSums;
  std::sort(sums.begin(), sums.end());
  return sums == c.sums;
}

}  // namespace culift::codegen
