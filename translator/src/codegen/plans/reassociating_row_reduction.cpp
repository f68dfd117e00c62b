// Row reduction (reassociating), 1-D, for a kernel whose author allowed its sums to be added in
// another order (CULIFT_KERNEL_REASSOCIATE, or the translate option): a warp per output, 32
// strided partial sums and a fixed tree of shuffles per chunk of the row. The order it adds in is
// fixed by the iteration index alone (culift/ast/reassociation.hpp; below, at WarpWriter),
// documented in docs/numerical-contract.md and reproduced by the CPU backend
// (interpreter/src/compile_stmt.cpp). The split-row plan shares it, and this plan's entry.
#include <map>
#include <set>

#include "ast_match.hpp"
#include "plan.hpp"
#include "warp_sums.hpp"

namespace culift::codegen {

// ---- legality --------------------------------------------------------------------------------

std::string arrayWriteReason(const std::vector<const Stmt*>& stmts, const std::string& where) {
  std::string reason;
  for (const Stmt* s : stmts) {
    forEachExpr(*s, [&](const Expr& e) {
      if (!reason.empty()) return;
      const Expr* t = assignmentTarget(e);
      if (t && t->kind == ExprKind::Subscript) reason = where + " write an array";
      else if (e.kind == ExprKind::Call)
        for (const ExprPtr& o : e.operands)
          if (o && o->type.isPointer() && !o->type.constElements) reason = where + " pass a writable array to a call";
    });
  }
  return reason;
}

std::string prologueWriteReason(const LoopAnalysis& a) {
  return arrayWriteReason(a.prologue, "the statements before the loop");
}

std::optional<std::vector<VarId>> reassociableSums(const Function& fn, const LoopAnalysis& a, std::string& reason) {
  reason = prologueWriteReason(a);
  const Stmt& body = *a.loop->body;
  auto nameOf = [&](VarId v) { return fn.vars[v].name; };
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

namespace {

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid1D || !f.reassociate) return plans::Decision::skip();
  // A warp per output, 8 outputs per block of 256 threads, where the loop only adds to sums.
  std::string why;
  std::optional<std::vector<VarId>> sums = reassociableSums(f, *analysis.loop, why);
  if (!sums) return plans::Decision::no("not reassociated: " + why);
  return plans::Decision::yes({plans::makeEntry(f, "_warp", LoopPlan::ReassociatingRowReduction, 8, 1, 256, false)},
                              std::move(*sums));
}

// ---- codegen ---------------------------------------------------------------------------------

// The order it adds in (culift/ast/reassociation.hpp, shared with the split-row entries and the
// interpreter's launches): the row's chunks of 4096 iterations are warp sums of their terms (lane l
// adds the terms of iterations l, l + 32, ... of the chunk in order, each term being what the loop
// body adds to the sum in that iteration, added to -0.0; lanes l and l ^ d then add their parts for
// d = 16, 8, 4, 2, 1); slot q adds the chunks q, q + 256, ... in order; lane l adds the slots l,
// l + 32, ... in order and the lanes add their parts as before; the sum is its value before the
// loop plus the total. A row of at most 4096 iterations is one warp sum of its terms.
class WarpWriter : WarpSumsWriter {
 public:
  WarpWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out)
      : WarpSumsWriter(module, fn, out), e_(e), warpsPerBlock_(e.threads / 32) {}

  void write() {
    CodeWriter::Scope entry = signature(
        e_, {fn_.name + ": " + std::string(culift::name(e_.plan)) + ", a warp per output, " + str(warpsPerBlock_) +
                 " per block of " + str(e_.threads) +
                 " threads; each chunk of 4096 iterations a warp sum (lane l adds iterations l, l + 32, ...",
             "in order, then lanes l and l ^ d add for d = 16, 8, 4, 2, 1), slot q the chunks q, q + 256, ... in "
             "order, the total a warp sum of the slots:",
             "the same bits on every run, on the split-row entry and on the CPU backend (docs/numerical-contract.md "
             "bounds the difference from the loop's order)."});
    extents(false);
    aliases();
    out_.say("const int culift_lane = threadIdx.x % 32;");
    CodeWriter::Scope rows = warpPerRow(warpsPerBlock_);
    perOut_ = prologueOnEveryLane();
    bounds();
    startIterations(perOut_);
    declare("culift_r", "lane l: slots l, l + 32, ... of");
    {
      CodeWriter::Scope slots = slotLoop("0", "1");
      slotSum();
      for (size_t s = 0; s < sums().size(); ++s)
        out_.say("if (culift_lane == culift_q % 32) culift_r" + str(s) + " = culift_r" + str(s) + " + culift_a" +
                 str(s) + ";");
    }
    laneTree("culift_r");
    addToSums("culift_r");
    out_.say("// The statements after the loop, on the first lane; a return stores the value.");
    out_.say("if (culift_lane != 0) continue;");
    epilogueStoring(perOut_);
  }

 private:
  const PlanEntry& e_;
  const unsigned warpsPerBlock_;
  PrintRewrites perOut_;
};

void emit(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  WarpWriter(module, fn, entry, out).write();
}

}  // namespace

const plans::Unit plans::kReassociatingRowReduction{LoopPlan::ReassociatingRowReduction, decide, emit};

}  // namespace culift::codegen
