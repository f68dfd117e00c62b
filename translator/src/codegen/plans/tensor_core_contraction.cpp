// Tiled contraction on tensor cores, 2-D (and per batch slice of a 3-D kernel), for kernels that opted in
// (CULIFT_KERNEL_TENSOR_CORES or the translate option): a loop that only adds products of an operand of row i and one
// of column j to one float sum (`s += A[i * n + k] * B[k * m + j]`) is the matrix product of the two staged tiles,
// which mma.sync computes from the operands rounded to the chosen format, summing in fp32 in the units' own order. The
// tiles, copies and the statements before and after the loop are the tiled entry's (tiles.cpp); only the loop body
// becomes mma instructions. Not exact: the numerical contract gives the bound
// (docs/numerical-contract.md#tensor-cores).
#include <algorithm>

#include "ast_match.hpp"
#include "plan.hpp"
#include "tiles.hpp"

namespace culift::codegen {

namespace {

// The one statement of a loop body (through blocks of one statement), or null.
const Stmt* onlyStatement(const Stmt& s) {
  const Stmt* p = &s;
  while (p->kind == StmtKind::Block) {
    if (p->stmts.size() != 1 || !p->stmts[0]) return nullptr;
    p = p->stmts[0].get();
  }
  return p;
}

// The operand a read is of, or -1.
int operandOf(const LoopAnalysis& a, const Expr& e) {
  for (std::size_t p = 0; p < a.operands.size(); ++p)
    if (std::find(a.operands[p].reads.begin(), a.operands[p].reads.end(), &e) != a.operands[p].reads.end())
      return static_cast<int>(p);
  return -1;
}

}  // namespace

std::optional<TensorCoreForm> tensorCoreForm(const Function& fn, const LoopAnalysis& a, std::string& reason) {
  if (!a.bothAxesReason.empty()) {
    reason = a.bothAxesReason;
    return std::nullopt;
  }
  const std::size_t first = a.batch != kNone ? 1 : 0;  // i and j follow a batch index
  if (a.operands.size() != 2 || !a.vectors.empty() || !a.outputReads.empty()) {
    reason = "the loop reads " + std::to_string(a.operands.size()) + " staged arrays, not one of row " +
             fn.vars[static_cast<VarId>(fn.indexParams[first])].name + " and one of column " +
             fn.vars[static_cast<VarId>(fn.indexParams[first + 1])].name;
    return std::nullopt;
  }
  const std::string form = "the loop body is not one `sum += a * b` of a float sum and the two staged arrays";
  const Stmt* s = onlyStatement(*a.loop->body);
  if (!s || s->kind != StmtKind::ExprStmt || !s->expr) {
    reason = form;
    return std::nullopt;
  }
  const Expr& e = *s->expr;
  const Expr* target = assignmentTarget(e);
  const Expr* product = nullptr;
  if (e.kind == ExprKind::CompoundAssign && e.binaryOp == BinaryOp::Add && e.computeType == Scalar::F32) {
    product = e.operands[1].get();
  } else if (e.kind == ExprKind::Assign && e.operands[1] && e.operands[1]->kind == ExprKind::Binary &&
             e.operands[1]->binaryOp == BinaryOp::Add) {
    // s = s + a * b
    const Expr& sum = *e.operands[1];
    if (target && target->kind == ExprKind::VarRef && sum.operands[0]->kind == ExprKind::VarRef &&
        sum.operands[0]->var == target->var)
      product = sum.operands[1].get();
  }
  if (!target || target->kind != ExprKind::VarRef || !product || product->kind != ExprKind::Binary ||
      product->binaryOp != BinaryOp::Mul || product->type.scalar != Scalar::F32 || !product->type.isValue()) {
    reason = form;
    return std::nullopt;
  }
  TensorCoreForm f;
  f.sum = target->var;
  const Var& sum = fn.vars[f.sum];
  if (sum.isParam || sum.isReference() || sum.type.scalar != Scalar::F32 || !sum.type.isValue() ||
      std::find(a.live.begin(), a.live.end(), f.sum) == a.live.end()) {
    reason = form;
    return std::nullopt;
  }
  const int x = operandOf(a, *product->operands[0]), y = operandOf(a, *product->operands[1]);
  if (x < 0 || y < 0 || x == y ||
      a.operands[static_cast<unsigned>(x)].axis == a.operands[static_cast<unsigned>(y)].axis) {
    reason = form;
    return std::nullopt;
  }
  for (const StagedOperand& o : a.operands)
    if (o.element != Scalar::F32 || o.reads.size() != 1) {
      reason = form;
      return std::nullopt;
    }
  f.rowOperand = static_cast<unsigned>(a.operands[static_cast<unsigned>(x)].axis == 0 ? x : y);
  f.colOperand = static_cast<unsigned>(a.operands[static_cast<unsigned>(x)].axis == 0 ? y : x);
  return f;
}

namespace {

// d(index)/d(var) where it is a literal or one integer scalar parameter (`P * var`, `var * P`,
// `var * 4`, through + and - with terms free of var): the stride of a row of an operand's matrix.
struct Coefficient {
  VarId param = kNone;  // the parameter's value, where set
  std::int64_t literal = 0;
};
bool uses(const Expr& e, VarId var) {
  bool found = false;
  forEachExpr(e, [&](const Expr& x) { found |= x.kind == ExprKind::VarRef && x.var == var; });
  return found;
}
// Whether `e` reads only parameters, the counter and literals (no local that could stand for var).
bool plain(const Function& f, const Expr& e, VarId counter) {
  bool only = true;
  forEachExpr(e, [&](const Expr& x) {
    only &= !(x.kind == ExprKind::VarRef && x.var >= f.numParams && x.var != counter);
  });
  return only;
}
std::optional<Coefficient> coefficientOf(const Function& f, const Expr& e, VarId var, unsigned depth = 0) {
  const Expr& s = stripCasts(e);
  if (depth > 32) return std::nullopt;
  if (!uses(s, var)) return Coefficient{};
  if (s.kind == ExprKind::VarRef) return Coefficient{kNone, 1};
  if (s.kind != ExprKind::Binary) return std::nullopt;
  const Expr& l = *s.operands[0];
  const Expr& r = *s.operands[1];
  const bool ul = uses(l, var), ur = uses(r, var);
  if ((s.binaryOp == BinaryOp::Add || s.binaryOp == BinaryOp::Sub) && ul != ur) {
    if (ur && s.binaryOp == BinaryOp::Sub) return std::nullopt;
    return coefficientOf(f, ul ? l : r, var, depth + 1);
  }
  if (s.binaryOp != BinaryOp::Mul || ul == ur) return std::nullopt;
  const std::optional<Coefficient> c = coefficientOf(f, ul ? l : r, var, depth + 1);
  const Expr& factor = stripCasts(ul ? r : l);
  if (!c || c->param != kNone) return std::nullopt;
  if (factor.kind == ExprKind::IntLiteral)
    return Coefficient{kNone, c->literal * static_cast<std::int64_t>(factor.intBits)};
  if (c->literal == 1 && factor.kind == ExprKind::VarRef && factor.var < f.numParams &&
      f.vars[factor.var].type.isValue() && isInteger(f.vars[factor.var].type.scalar))
    return Coefficient{factor.var, 0};
  return std::nullopt;
}

}  // namespace

bool unitStepOf(const Function& fn, const Expr& index, VarId var) {
  const std::optional<Coefficient> step = coefficientOf(fn, index, var);
  return plain(fn, index, kNone) && step && step->param == kNone && step->literal == 1;
}

namespace {

// The operand's matrix for bulk tensor copies: its index steps one element along `inner` and a
// row (a literal or a parameter's value) along `outer`, and reads nothing but parameters, k and
// literals; nothing where it does not.
std::optional<TensorMapOperand> tensorMapOf(const Function& f, const LoopAnalysis& a, const StagedOperand& o,
                                            VarId inner, VarId outer, unsigned boxCols, unsigned boxRows) {
  if (o.element != Scalar::F32 || !plain(f, *o.index, a.counter)) return std::nullopt;
  const std::optional<Coefficient> step = coefficientOf(f, *o.index, inner);
  const std::optional<Coefficient> row = coefficientOf(f, *o.index, outer);
  if (!step || step->param != kNone || step->literal != 1 || !row) return std::nullopt;
  if (row->param == kNone && row->literal <= 0) return std::nullopt;
  TensorMapOperand m;
  m.buffer = o.array;
  m.strideParam = row->param;
  m.stride = row->literal;
  m.boxCols = boxCols;
  m.boxRows = boxRows;
  return m;
}

// The entries <f>_tc128 and <f>_tc64 of `plan` (the batched one for 3-D kernels), or why none.
plans::Decision decide(const Function& f, const KernelAnalysis& analysis, LoopPlan plan) {
  const LoopAnalysis& a = *analysis.loop;
  std::string why;
  if (!tensorCoreForm(f, a, why)) return plans::Decision::no("no tensor cores: " + why);
  // 128 x 128 outputs a block for the sum alone (64 accumulators a thread), 64 x 64 beside it.
  const std::size_t live = a.live.size() + a.assignedParams.size();
  std::vector<PlanEntry> entries;
  // On TF32, the 2-D contraction's entries on warpgroups first (wgmma where compiled for sm_90a, the
  // mma.sync body elsewhere; measured on an H100 by bench/gpu/wgmma_variants.cu: 2.5x the
  // mma.sync entry at 4096³): 256 rows a block (128 sums a thread; a thread's outputs that return
  // before the loop are marked in 64 bits, so not where the statements before the loop return),
  // then 128.
  if (f.tensorCores == TensorCores::TF32 && plan == LoopPlan::TensorCoreContraction && live <= 1) {
    // Both operands by bulk tensor copies where their indices allow: the row operand's tile as one
    // box of 32 k x the tile's rows, the column operand's as boxes of 32 columns x 32 k.
    const TensorCoreForm form = *tensorCoreForm(f, a, why);
    const auto i = static_cast<VarId>(f.indexParams.at(0)), j = static_cast<VarId>(f.indexParams.at(1));
    const std::optional<TensorMapOperand> colMap = tensorMapOf(f, a, a.operands[form.colOperand], j, a.counter,
                                                               kWarpgroupBox, kWarpgroupStep);
    for (unsigned rows : {256u, 128u}) {
      if (rows == 256 && a.earlyReturn) continue;
      entries.push_back(plans::makeEntry(f, std::string(kWarpgroupSuffix) + std::to_string(rows), plan, rows,
                                         kWarpgroupCols, kWarpgroupThreads, false));
      const std::optional<TensorMapOperand> rowMap = tensorMapOf(f, a, a.operands[form.rowOperand], a.counter, i,
                                                                 kWarpgroupStep, rows);
      if (rowMap && colMap) entries.back().tensorMaps = {*rowMap, *colMap};
      // With the maps, the 256-row entry's copies go to a warpgroup of their own (tiles.hpp).
      if (rows == 256 && rowMap && colMap) entries.back().threads = kWarpgroupThreads + kWarpgroupCopiers;
      entries.back().sharedBytes = warpgroupSharedBytes(rows, !entries.back().tensorMaps.empty());
    }
  }
  for (unsigned t : {128u, 64u}) {
    if (t == 128 && live > 1) continue;
    if (t == 64 && live > 4) continue;
    entries.push_back(plans::makeEntry(f, "_tc" + std::to_string(t), plan, t, t, 256, false));
    entries.back().sharedBytes = tileDynamicShared(a, t, kTensorCoreTilePad, kTensorCoreStep);
  }
  if (entries.empty())
    return plans::Decision::no("no tensor cores: " + std::to_string(live) + " values live across the loop");
  plans::Decision d = plans::Decision::yes(std::move(entries));
  d.reason = std::string(name(f.tensorCores)) +
             " operands, fp32 sums: within the bound of "
             "docs/numerical-contract.md#tensor-cores, not exact";
  return d;
}

plans::Decision decide2D(const Function& f, const KernelAnalysis& analysis) {
  if (f.tensorCores == TensorCores::None || f.mode != IndexMode::Grid2D) return plans::Decision::skip();
  return decide(f, analysis, LoopPlan::TensorCoreContraction);
}

// 3-D f(..., b, i, j): each batch slice's contraction, b fixed for a block (the batched tiles).
plans::Decision decideBatched(const Function& f, const KernelAnalysis& analysis) {
  if (f.tensorCores == TensorCores::None || f.mode != IndexMode::Grid3D) return plans::Decision::skip();
  return decide(f, analysis, LoopPlan::BatchedTensorCoreContraction);
}

}  // namespace

const plans::Unit plans::kTensorCoreContraction{LoopPlan::TensorCoreContraction, decide2D, emitTiledEntry};
const plans::Unit plans::kBatchedTensorCoreContraction{LoopPlan::BatchedTensorCoreContraction, decideBatched,
                                                       emitTiledEntry};

}  // namespace culift::codegen
