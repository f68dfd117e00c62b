// Tiled contraction, 2-D: the operands indexed by (i, k) and (j, k) staged tile by tile in shared
// memory, a register tile of outputs per thread (8 x 8 for 128 x 128 outputs per block, 4 x 4 for
// 64 x 64). The entries and their emitter are tiles.cpp's, which the symmetric plan shares.
#include "plan.hpp"
#include "tiles.hpp"

namespace culift::codegen {
namespace {

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid2D) return plans::Decision::skip();
  std::string why;
  const std::vector<unsigned> tiles = tilesThatFit(f, *analysis.loop, why);
  if (tiles.empty()) return plans::Decision::no(why);
  return plans::Decision::yes(tiledEntries(f, *analysis.loop, tiles, LoopPlan::TiledContraction, "_tiled", false));
}

}  // namespace

const plans::Unit plans::kTiledContraction{LoopPlan::TiledContraction, decide, emitTiledEntry};

}  // namespace culift::codegen
