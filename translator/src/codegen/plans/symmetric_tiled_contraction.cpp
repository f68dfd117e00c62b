// Symmetric tiled contraction, 2-D, where f(i, j) == f(j, i) bit for bit: the tiles on and below
// the diagonal only (the Triangle mapping), each result stored at (i, j) and (j, i) — half the
// work of a tiled contraction — for square launches, then the plain tiles for the others.
#include "ast_match.hpp"
#include "plan.hpp"
#include "tiles.hpp"

namespace culift::codegen {
namespace {

// Whether f(i, j) and f(j, i) compute the same operations on the same values, so give the same
// bits: the body with i and j exchanged is the body itself, up to the order of the operands of
// + and * (exact in IEEE arithmetic) and of == and !=. Locals the analysis inlines (`int ri =
// i * n;`) are compared as their initializers.
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

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid2D || !isSymmetric(f, *analysis.loop)) return plans::Decision::skip();
  std::string why;
  const std::vector<unsigned> tiles = tilesThatFit(f, *analysis.loop, why);
  if (tiles.empty()) return plans::Decision::no(why);
  // The mirrored tiles for square launches, then the plain ones for the others.
  std::vector<PlanEntry> entries = tiledEntries(f, *analysis.loop, tiles, LoopPlan::SymmetricTiledContraction, "_sym",
                                                true);
  for (PlanEntry& e : tiledEntries(f, *analysis.loop, tiles, LoopPlan::TiledContraction, "_tiled", false))
    entries.push_back(std::move(e));
  return plans::Decision::yes(std::move(entries));
}

}  // namespace

const plans::Unit plans::kSymmetricTiledContraction{LoopPlan::SymmetricTiledContraction, decide, emitTiledEntry};

}  // namespace culift::codegen
