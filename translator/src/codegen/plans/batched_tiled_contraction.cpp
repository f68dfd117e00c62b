// Batched tiled contraction, 3-D f(..., b, i, j): the tiled contraction of each batch slice. The
// operands indexed by (b, i, k) or (i, k), and (b, k, j) or (k, j), are staged as the 2-D plan
// stages them, b fixed for a block (grid z, in steps of gridDim.z); an operand free of b (doitgen's
// C4[s * np + p]) is the same for every batch. The entries and their emitter are tiles.cpp's.
#include "plan.hpp"
#include "tiles.hpp"

namespace culift::codegen {
namespace {

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid3D) return plans::Decision::skip();
  std::string why;
  const std::vector<unsigned> tiles = tilesThatFit(f, *analysis.loop, why);
  if (tiles.empty()) return plans::Decision::no(why);
  return plans::Decision::yes(
      tiledEntries(f, *analysis.loop, tiles, LoopPlan::BatchedTiledContraction, "_batched", false));
}

}  // namespace

const plans::Unit plans::kBatchedTiledContraction{LoopPlan::BatchedTiledContraction, decide, emitTiledEntry};

}  // namespace culift::codegen
