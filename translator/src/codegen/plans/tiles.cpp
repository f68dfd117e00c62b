#include "tiles.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

#include "ast_match.hpp"
#include "entry_writer.hpp"
#include "plan.hpp"

namespace culift::codegen {

unsigned tileStages(unsigned, bool deep) { return deep ? 2 : 3; }
unsigned tileStep(unsigned tile, unsigned widestElement, bool deep) {
  return deep || (tile < 128 && widestElement <= 4) ? 16 : 8;
}

namespace {

unsigned widestOperand(const LoopAnalysis& a) {
  unsigned widest = 0;
  for (const StagedOperand& o : a.operands) widest = std::max(widest, byteSize(o.element));
  return widest;
}

}  // namespace

// The exact 128-wide tiles of two staged arrays of at most 4-byte elements, in two forms: k 16 a
// tile in two stages, not 8 in three (one barrier and one wait per 16 steps of k; the copy of the
// next tile overlaps the 16 steps of this one). Measured on an H100 (bench/gpu/gemm_variants.cu,
// the stages unrolled, 4096³): 2.966 ms so, 3.065 with k 8 in three stages, 3.106 with k 16 in
// three (36 B spilled).
bool deepPipeline(const LoopAnalysis& a, unsigned tile, bool versioned) {
  return versioned && tile >= 128 && a.operands.size() <= 2 && widestOperand(a) <= 4;
}

namespace {

// Bytes of shared memory the staged tiles of `tile` outputs a side take (every stage of every operand).
std::size_t tileSharedBytes(const LoopAnalysis& a, unsigned tile, unsigned pad = kTilePad, unsigned step = 0,
                            bool deep = false) {
  if (step == 0) step = tileStep(tile, widestOperand(a), deep);
  std::size_t bytes = 0;
  for (const StagedOperand& o : a.operands)
    bytes += std::size_t{tileStages(tile, deep)} * step * (tile + pad) * byteSize(o.element);
  return bytes;
}

}  // namespace

unsigned tileDynamicShared(const LoopAnalysis& a, unsigned tile, unsigned pad, unsigned step) {
  const std::size_t bytes = tileSharedBytes(a, tile, pad, step);
  return bytes <= kStaticSharedBytes ? 0u : static_cast<unsigned>(bytes);
}

std::vector<unsigned> tilesThatFit(const Function& fn, const LoopAnalysis& a, std::string& reason) {
  // A tile stages what a row or a column of outputs shares; an element of one output is shared by none.
  if (!a.bothAxesReason.empty()) {
    reason = a.bothAxesReason;
    return {};
  }
  // Only the last step of such a loop counts: no tile serves the steps before it.
  if (!a.overwritten.empty()) {
    reason = fn.vars[a.overwritten[0]].name + " is overwritten on every step of the loop over " +
             fn.vars[a.counter].name + " (only the last step counts): nothing to tile";
    return {};
  }
  // Static shared memory where the stages fit 48 KiB, dynamic up to kPlanSharedBudget (several
  // operand pairs: syr2k's four staged arrays).
  const size_t live = a.live.size() + a.assignedParams.size();
  std::vector<unsigned> tiles;
  // The 128-wide tile of two staged arrays keeps to 128 registers (two blocks of 256 threads an
  // SM): 64 outputs and the fragments. Three or four arrays' fragments take more (syr2k's: 243,
  // ptxas, sm_90), one block an SM: measured on an H100, syr2k 4096 took 4.95 ms so against 5.63 in
  // the 64-wide tile at two blocks.
  if (live * 64 + a.operands.size() * 8 <= 160 && a.operands.size() <= 4 &&
      tileSharedBytes(a, 128, kTilePad, 0, deepPipeline(a, 128, true)) <= kPlanSharedBudget)
    tiles.push_back(128);
  if (live * 16 <= 128 && tileSharedBytes(a, 64) <= kPlanSharedBudget) tiles.push_back(64);
  if (tiles.empty())
    reason = std::to_string(live) + " values live across the loop and " + std::to_string(a.operands.size()) +
             " staged arrays do not fit a register tile";
  return tiles;
}

// The exact tiles but the triangle's come in two forms (TileWriter). Split so (ptxas, sm_90), the
// triangle's checked form spilled 80 B (GramDot_sym128). The batched tiles' forms take one batch
// each, the kernel looping over the batches and choosing a form per batch (with the batches' loop
// in each form they spilled 16 B and 28 B). The 64-wide tiles' whole forms run the loop over k in
// a third fewer instructions (ptxas, sm_90: GemmCell_tiled64 340 for 256 products against 532 for
// 272 in one form, Syr2kCell_tiled64 1033 against 1368), without spills. The tensor-core tiles keep
// one form: split, GemmCellTf32_tc128 spilled 16 B and ran at 1.771 ms on the H200 against 1.506 ms
// in one form (docs/benchmarks.md).
namespace {
bool versionedTile(const PlanEntry& e) {
  return e.tileRows >= 64 && !onTensorCores(e.plan) && e.blockMapping() != BlockMapping::Triangle;
}
}  // namespace

std::vector<PlanEntry> tiledEntries(const Function& fn, const LoopAnalysis& a, const std::vector<unsigned>& tiles,
                                    LoopPlan plan, const std::string& prefix, bool squareOnly) {
  std::vector<PlanEntry> entries;
  for (unsigned t : tiles) {
    entries.push_back(plans::makeEntry(fn, prefix + str(t), plan, t, t, 256, squareOnly));
    // A versioned tile's two forms share one dynamic allocation.
    entries.back().edgeKernel = versionedTile(entries.back());  // its checked form a kernel of its own
    entries.back().sharedBytes = versionedTile(entries.back())
                                     ? static_cast<unsigned>(
                                           tileSharedBytes(a, t, kTilePad, 0, deepPipeline(a, t, true)))
                                     : tileDynamicShared(a, t);
  }
  return entries;
}

namespace {

// ---- the statements before the loop that every output runs alike ------------------------------
// A prefix of the statements before the loop that reads only scalar parameters other than the
// indices and what such statements set, calls only functions whose parameters are all scalar
// values (no array, no reference: nothing outside the call changes), and writes no array, gives
// every output the same values. A tiled entry runs it once per thread, outside the register tile;
// each output then starts from those values (a local the statements after it change gets a copy
// per output, one they only read stays one register). The same operations on the same values:
// the per-thread entry's bits. (The device assembler also got a register tile wrong that ran such
// statements once per output behind each output's range test: seed 20261205, p1799.)
struct UniformPrologue {
  std::size_t count = 0;     // the first `count` statements of the prologue
  std::vector<VarId> vars;   // the locals they declare and the parameters they assign, in order
  std::set<VarId> modified;  // those that a later statement may change (a copy per output)
  // Those of them that only their declaration's literal sets: each output's copy starts from the
  // literal itself (as the per-output statement would), not from a register.
  std::map<VarId, const Expr*> literalInits;
};

class UniformAnalyzer {
 public:
  UniformAnalyzer(const Module& module, const Function& fn, const LoopAnalysis& a) : module_(module), fn_(fn), a_(a) {}

  UniformPrologue run() {
    UniformPrologue u;
    for (const Stmt* s : a_.prologue) {
      if (!uniform(*s)) break;
      ++u.count;
      if (s->kind == StmtKind::Decl) {
        add(u, s->var);
        if (s->expr && literal(*s->expr)) u.literalInits[s->var] = s->expr.get();
      }
      forEachExpr(*s, [&](const Expr& e) {
        if (const Expr* t = assignmentTarget(e); t && t->kind == ExprKind::VarRef) {
          add(u, t->var);
          u.literalInits.erase(t->var);
        }
      });
    }
    // Declarations with a literal (or no) initializer alone are not worth running apart: each
    // output's register starts from the literal as before.
    bool computes = false;
    for (std::size_t k = 0; k < u.count; ++k) computes = computes || !literalDecl(*a_.prologue[k]);
    if (!computes) return {};
    // What the statements after the prefix may change: an assignment, a call's argument (it may
    // bind a reference), a local reference bound to it.
    std::vector<const Stmt*> later(a_.prologue.begin() + static_cast<std::ptrdiff_t>(u.count), a_.prologue.end());
    later.push_back(a_.loop);
    later.insert(later.end(), a_.epilogue.begin(), a_.epilogue.end());
    for (const Stmt* s : later) {
      forEachExpr(*s, [&](const Expr& e) {
        if (const Expr* t = assignmentTarget(e); t && t->kind == ExprKind::VarRef) u.modified.insert(t->var);
        if (e.kind == ExprKind::Call)
          for (const ExprPtr& o : e.operands)
            if (o && o->kind == ExprKind::VarRef) u.modified.insert(o->var);
      });
      forEachStmt(*s, [&](const Stmt& d) {
        if (d.kind == StmtKind::Decl && fn_.vars[d.var].isReference() && d.expr)
          forEachExpr(*d.expr, [&](const Expr& e) {
            if (e.kind == ExprKind::VarRef) u.modified.insert(e.var);
          });
      });
    }
    return u;
  }

 private:
  static bool literal(const Expr& e) {
    const Expr* p = &e;
    while (p->kind == ExprKind::Cast && !p->operands.empty()) p = p->operands[0].get();
    return p->kind == ExprKind::IntLiteral || p->kind == ExprKind::FloatLiteral || p->kind == ExprKind::BoolLiteral;
  }
  static bool literalDecl(const Stmt& s) { return s.kind == StmtKind::Decl && (!s.expr || literal(*s.expr)); }
  static void add(UniformPrologue& u, VarId v) {
    if (std::find(u.vars.begin(), u.vars.end(), v) == u.vars.end()) u.vars.push_back(v);
  }
  bool isIndex(VarId v) const {
    return std::find(fn_.indexParams.begin(), fn_.indexParams.end(), static_cast<int>(v)) != fn_.indexParams.end();
  }
  // A function of scalar values only, itself and what it calls.
  bool pure(FuncId f, unsigned depth = 0) {
    if (f >= module_.functions.size() || depth > 32) return false;
    if (auto it = pure_.find(f); it != pure_.end()) return it->second;
    const Function& callee = module_.functions[f];
    bool ok = callee.body != nullptr;
    for (unsigned p = 0; ok && p < callee.numParams; ++p)
      ok = callee.vars[p].type.isValue() && !callee.vars[p].isReference();
    if (ok)
      visitExprs(*callee.body, [&](const Expr& e) {
        if (e.kind == ExprKind::Call && !pure(e.callee, depth + 1)) ok = false;
        if (e.kind == ExprKind::AtomicRmw || e.kind == ExprKind::Assert) ok = false;
        return ok;
      });
    pure_[f] = ok;
    return ok;
  }
  bool uniform(const Expr& e) {
    bool ok = true;
    visitExprs(e, [&](const Expr& x) {
      switch (x.kind) {
        case ExprKind::VarRef: {
          const Var& v = fn_.vars[x.var];
          if (isIndex(x.var) || !v.type.isValue() || v.isReference()) ok = false;
          else if (!v.isParam && !declared_.count(x.var)) ok = false;
          break;
        }
        case ExprKind::Subscript:
        case ExprKind::AtomicRmw:
        case ExprKind::Assert: ok = false; break;
        case ExprKind::Call: ok = ok && pure(x.callee); break;
        default: break;
      }
      return ok;
    });
    return ok;
  }
  bool uniform(const Stmt& s) {
    if (s.kind == StmtKind::Decl) {
      const Var& v = fn_.vars[s.var];
      if (!v.type.isValue() || v.isReference() || !s.inits.empty() || (s.expr && !uniform(*s.expr))) return false;
      declared_.insert(s.var);
      return true;
    }
    return s.kind == StmtKind::ExprStmt && s.expr && uniform(*s.expr);
  }

  const Module& module_;
  const Function& fn_;
  const LoopAnalysis& a_;
  std::set<VarId> declared_;
  std::map<FuncId, bool> pure_;
};

// The loop a tensor-core entry runs as mma instructions (tensor_core_contraction.cpp), or nothing
// for the other tiled entries.
std::optional<TensorCoreForm> tensorCoreFormOf(const Function& fn, const LoopAnalysis& a, const PlanEntry& e) {
  if (!onTensorCores(e.plan)) return std::nullopt;
  std::string why;
  std::optional<TensorCoreForm> form = tensorCoreForm(fn, a, why);
  if (!form || fn.tensorCores == TensorCores::None)
    throw std::logic_error("tensor-core entry " + e.kernelName + " of " + fn.name + ": " + why);
  return form;
}

class TileWriter : EntryWriter {
 public:
  // `warpgroups`: the wgmma body of an entry on warpgroups (false for its mma.sync body).
  // `deep`: whether the entry may take the deep pipeline (deepPipeline); its checked form does not.
  TileWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out, bool warpgroups,
             bool deep = true)
      : EntryWriter(module, fn, out),
        module_(module),
        e_(e),
        uniform_(UniformAnalyzer(module, fn, a_).run()),
        tc_(tensorCoreFormOf(fn, a_, e)),
        wg_(warpgroups),
        fallback_(!warpgroups && onWarpgroups(e)),
        specialized_(onWarpgroups(e) && !e.tensorMaps.empty() && e.threads == kWarpgroupThreads + kWarpgroupCopiers),
        workers_(specialized_ ? kWarpgroupThreads : e.threads),
        pad_(tc_ ? kTensorCoreTilePad : kTilePad),
        tm_(wg_ ? e.tileRows / 4 : e.tileRows / 16),
        tn_(wg_ ? 2 : e.tileCols / 16),
        shallow_(!deep && deepPipeline(a_, e.tileRows, versionedTile(e))),
        deep_(deep && !wg_ && !tc_ && deepPipeline(a_, e.tileRows, versionedTile(e))),
        stages_(wg_ ? kWarpgroupStages : tileStages(e.tileRows, deep_)),
        kStep_(wg_   ? kWarpgroupStep
               : tc_ ? kTensorCoreStep
                     : tileStep(e.tileRows, widestElement(), deep_)),
        triangle_(e.blockMapping() == BlockMapping::Triangle),
        // Output (m, n) of this thread: rows in groups of 4, the groups tileRows / (tm / 4) apart.
        // On tensor cores, the sums an mma leaves in the lane: 8 warps of (tileRows / 2) x (tileCols /
        // 4), each in mma tiles of 16 x 8, the lane's rows g and g + 8, columns 2 t and 2 t + 1 of each.
        // On warpgroups, the sums wgmma leaves in the lane: the warpgroup's 64 columns by the
        // block's rows, the lane's rows 8 q + 2 t and 8 q + 2 t + 1 for q < rows / 8, its warp's
        // columns g and g + 8.
        rowOf_(wg_ ? "culift_i0 + (culift_m / 2) * 8 + culift_t4 * 2 + culift_m % 2"
               : tc_
                   ? "culift_i0 + culift_wm + (culift_m / 2) * 16 + (culift_m % 2) * 8 + culift_g"
                   : "culift_i0 + (culift_m / 4) * " + str(e.tileRows / (tm_ / 4)) + " + culift_ty * 4 + culift_m % 4"),
        colOf_(wg_ ? "culift_j0 + culift_wn + culift_g + culift_n * 8"
               : tc_
                   ? "culift_j0 + culift_wn + (culift_n / 2) * 8 + culift_t4 * 2 + culift_n % 2"
                   : "culift_j0 + (culift_n / 4) * " + str(e.tileCols / (tn_ / 4)) + " + culift_tx * 4 + culift_n % 4"),
        bit_("(1ull << (culift_m * " + str(tn_) + " + culift_n))") {}

  void write() {
    if (batched() != (e_.blockMapping() == BlockMapping::BatchedTiles2D))
      throw std::logic_error("tiled entry " + e_.kernelName + " does not match the batches of " + fn_.name);
    if (e_.edgeKernel != versioned())
      throw std::logic_error("tiled entry " + e_.kernelName + (versioned() ? " has no" : " has an") + " edge kernel");
    const std::string what = description();
    // 128-wide: two blocks an SM (128 registers a thread) for two staged arrays, one for more.
    const unsigned minBlocks = e_.tileRows >= 128 ? (a_.operands.size() <= 2 ? 2 : 1) : 0;
    if (wg_) {
      // The wgmma body where compiled for sm_90a; elsewhere the mma.sync entry's body (the same
      // block of outputs and threads, in less of the same shared memory).
      // One block a multiprocessor for the wgmma body (its registers up to 255), two for the
      // mma.sync body of 128 rows (128 registers, as the mma.sync entry), one for that of 256 (its
      // 128 sums a thread).
      CodeWriter::Scope entry = header(e_, what, 0, e_.tileRows > 128 ? "1" : "CULIFT_WARPGROUP_BLOCKS");
      out_.say("#if defined(__CUDA_ARCH_FEAT_SM90_ALL)");
      tileBody();
      TileWriter mma(module_, fn_, e_, out_, false);
      out_.say("#else  // the mma.sync body: " + mma.description());
      mma.tileBody();
      out_.say("#endif");
      return;
    }
    if (!versioned()) {
      CodeWriter::Scope entry = header(e_, what, minBlocks);
      tileBody();
      return;
    }
    for (bool fast : {true, false}) {
      fast_ = fast;
      out_.say(
          fast ? "// " + e_.kernelName + " for a block whose tiles are all whole (unchecked copies, whole steps of " +
                     name(a_.counter) + ")."
               : "// " + e_.kernelName + " for the other blocks (copies checked where a tile is partial), run by " +
                     edgeKernelName(e_) + ".");
      // Each form is inlined into its kernel, but a batched one: inlined in the kernel's loop over
      // the batches the whole form spilled 92 B (ptxas, sm_90: 6 loads from the stack in its loop
      // over k against 4 as a call).
      CodeWriter::Scope f = out_.open(std::string("extern \"C\" __device__ ") +
                                      (batched() ? "__noinline__" : "__forceinline__") + " void " + formName(fast) +
                                      "(" + params_.declarations + ", long long culift_first" +
                                      (batched() ? ", " + typeOf(a_.batch) + " culift_batch" : std::string()) + ")");
      if (fast || !deep_) {
        tileBody();
        continue;
      }
      // The checked form keeps k 8 a tile in three stages (within the whole form's shared memory):
      // with the deep pipeline's, its checked copies spilled (GemmCell_tiled128: 52 B).
      TileWriter checked(module_, fn_, e_, out_, false, false);
      checked.fast_ = false;
      checked.tileBody();
    }
    fast_ = false;  // the dispatch computes the flags and culift_whole as the checked form does
    {
      CodeWriter::Scope entry = header(e_, what, minBlocks);
      out_.say("culift_start_edge();  // the edge kernel's blocks may start beside this kernel's last ones");
      dispatch(true);
    }
    PlanEntry edge = e_;
    edge.kernelName = edgeKernelName(e_);
    CodeWriter::Scope entry = signature(edge,
                                        {fn_.name + ": the blocks " + e_.kernelName +
                                         " leaves (a tile partial, or operands not in 16-byte groups), launched after "
                                         "it over the same grid; each output runs the loop in source order."},
                                        "", minBlocks);
    out_.say("culift_wait_for_entry();  // the first block ends after the whole entry, so this kernel does");
    dispatch(false);
  }

  // What a block of the entry computes (its comment).
  std::string description() const {
    return str(e_.tileRows) + " x " + str(e_.tileCols) + " outputs per block of " + str(e_.threads) + " threads, " +
           (wg_ ? "two warpgroups of 64 columns x " + str(e_.tileRows) +
                      " rows on tensor cores (wgmma, tf32 operands, fp32 sums; not exact), "
            : tc_ ? "8 warps of " + str(e_.tileRows / 2) + " x " + str(e_.tileCols / 4) + " on tensor cores (" +
                        std::string(culift::name(fn_.tensorCores)) + " operands, fp32 sums; not exact), "
                  : std::string()) +
           str(tm_) + " x " + str(tn_) + " per thread, " + name(a_.counter) + " in steps of " + str(kStep_) +
           (bulk() ? ", whole tiles by bulk tensor copies where the runtime's tensor maps hold" : "") +
           (specialized_ && wg_ ? ", issued by a copying warpgroup of their own" : "") +
           (fallback_ && specialized_ ? ", the threads past " + str(workers_) + " idle" : "") +
           (triangle_ ? ", tiles on and below the diagonal, mirrored" : "") +
           (batched() ? ", batch " + name(a_.batch) + " from blockIdx.z in steps of gridDim.z" : "");
  }

 private:
  // The entry's work after its signature (a versioned entry's: one form's).
  void tileBody() {
    // The mma.sync body of an entry with a copying warpgroup: the threads past the workers leave.
    if (fallback_ && specialized_) out_.say("if (threadIdx.x >= " + str(workers_) + ") return;");
    // A batched entry's form takes one batch (culift_batch): the kernel loops over them.
    const bool oneBatch = batched() && versioned();
    extents(true, !oneBatch);
    aliases();
    stagedTiles();
    blockOrigin();
    if (wg_) {
      out_.say("const int culift_lane = threadIdx.x % 32, culift_warp = threadIdx.x / 32;");
      out_.say("const int culift_g = culift_lane / 4, culift_t4 = culift_lane % 4;");
      out_.say("const int culift_wn = culift_warp * 16;  // the warp's 16 columns (its warpgroup's 64)");
    } else if (tc_) {
      out_.say("const int culift_lane = threadIdx.x % 32, culift_warp = threadIdx.x / 32;");
      out_.say(
          "const int culift_g = culift_lane / 4, culift_t4 = culift_lane % 4;  // the lane's rows and columns of an mma tile");
      out_.say("const int culift_wm = (culift_warp / 4) * " + str(e_.tileRows / 2) +
               ", culift_wn = (culift_warp % 4) * " + str(e_.tileCols / 4) + ";  // the warp's outputs");
    } else if (std::any_of(a_.operands.begin(), a_.operands.end(),
                           [&](const StagedOperand& o) { return grouped(o); }) ||
               (e_.tileRows >= 128 && a_.operands.size() <= 2)) {
      // A warp holds 4 rows x 8 columns of the 16 x 16 threads: its reads of a stage's row are
      // 4 + 8 16-byte loads (2 x 16: 2 + 16, two wavefronts). Measured on an H100
      // (bench/gpu/gemm_variants.cu, 4096³): the hand-written pipe<8,3,v,q> (B in 16-byte groups,
      // 4 x 8 a warp) 44.35 TFLOP/s, the entry with the groups and 2 x 16 a warp 39.96; and
      // (NOTES.md, seventeenth run) the emitted whole form of C = A Bᵀ (no operand in groups) 3.023
      // ms with 4 x 8 against 3.066 with 2 x 16 at 2048 x 8192 x 4096, the same bits. In this
      // arithmetic form ptxas keeps the GEMM entry at 128 registers without spills (in bit
      // operations it spilled 20 B).
      out_.say(
          "const int culift_tx = (int)(threadIdx.x / 32 % 2 * 8 + threadIdx.x % 8), culift_ty = (int)(threadIdx.x / 64 "
          "* 4 + threadIdx.x % 32 / 8);  // a warp: 4 x 8 threads");
    } else {  // not measured with 4 x 8: the 64-wide tiles, syr2k's four staged arrays
      out_.say("const int culift_tx = threadIdx.x % 16, culift_ty = threadIdx.x / 16;");
    }
    std::optional<CodeWriter::Scope> batches;
    if (oneBatch) out_.say("const " + typeOf(a_.batch) + " " + name(a_.batch) + " = culift_batch;");
    else if (batched()) batches.emplace(batchLoop());
    bounds();
    // The copying warpgroup's work, before the registers of the outputs: it leaves when done.
    if (specialized_ && wg_) {
      bulkSetup();
      copier();
    }
    registers();
    prologue();
    loop();
    epilogue();
    if (batched() && !oneBatch) out_.say("__syncthreads();  // the next batch's copies reuse the stages this one read");
  }
  CodeWriter::Scope batchLoop() {
    const std::string b = name(a_.batch), t = typeOf(a_.batch);
    return out_.open("for (" + t + " " + b + " = (" + t + ")(culift_first + blockIdx.z); " + b + " < culift_nb; " + b +
                     " += (" + t + ")gridDim.z)");
  }
  std::string formName(bool fast) const { return "culift_" + e_.kernelName + (fast ? "_whole" : "_edge"); }
  // A versioned entry's kernel: per block (and batch), whether every tile is whole, then that form.
  // The test reads only values the same in every thread of the block (its extents and origin, the
  // trip count, the grouped operands' steps and first groups), so that the device compiler knows
  // the branch taken alike by every thread of a warp: with a barrier's vote (__syncthreads_and of
  // each thread's flags) the GEMM's kernel read its parameters from constant memory into uniform
  // registers again in every round of its loop; with this test its loop is the whole form's
  // (gemm_variants.cu). The checked form is a kernel of its own (`whole` false: the blocks the
  // test fails): its call in the entry's kernel, never taken, cost the GEMM 5 % (loop-plans.md).
  void dispatch(bool whole) {
    extents(true);
    aliases();
    blockOrigin();
    std::optional<CodeWriter::Scope> batches;
    if (batched()) batches.emplace(batchLoop());
    bounds();
    for (size_t p = 0; p < a_.operands.size(); ++p)
      if (grouped(a_.operands[p])) groupSteps(p, true);
    std::string args;
    for (const std::string& n : params_.names) args += n + ", ";
    args += "culift_first";
    if (batched()) args += ", " + name(a_.batch);
    const std::string test = "culift_whole" + groupFlags() + " && culift_trip % " + str(kStep_) +
                             " == 0 && culift_trip <= " + str(kWholeTripMax);
    CodeWriter::Scope form = out_.open(whole ? "if (" + test + ")" : "if (!(" + test + "))");
    out_.say(formName(whole) + "(" + args + ");");
    if (batched()) out_.say("__syncthreads();  // the next batch's copies reuse the stages this one read");
  }

  // The loops over this thread's outputs (m, n), declaring i and j where the statements use them;
  // inner closes before outer.
  struct PerOutput {
    CodeWriter::Scope outer, inner;
  };
  PerOutput perOutput(const std::string& what, bool declareI = true, bool declareJ = true);

  void stagedTiles();
  void blockOrigin();
  void wholeTile();
  void registers();
  void prologue();
  void copyTile();
  bool versioned() const;
  // Writing a versioned entry's whole form (every tile of the block whole).
  bool wholeForm() const { return versioned() && fast_; }
  // The whole form's statements after the loop with the outputs stored four columns at once.
  bool vectorStores() const;
  void vectorEpilogue(PrintRewrites after);
  // The whole form's tiles a round of `stages` at a time, the round's stages unrolled: each tile's
  // stage (and the stage its copies go to) a constant, so that every shared-memory address is a
  // register plus a constant. Measured on an H100 (bench/gpu/gemm_variants.cu, 4096³): the
  // hand-written GEMM so 3.044 ms against 3.092 with the stage counted in the loop. Not for more
  // than two staged arrays (syr2k's four, 243 registers: unrolled it took 5.19 ms against 4.95).
  bool rounds() const { return wholeForm() && !bulk() && a_.operands.size() <= 2; }
  // The whole form counts k in 32 bits: the dispatch takes it for trip counts up to kWholeTripMax
  // only, so that the copies' k (a tile past the last) stays an int. With the offsets in 32 bits
  // too (narrowOffsets), registers the 128-wide tiles lack otherwise (ptxas, sm_90: the batched
  // GEMM's whole form spilled in 64 bits).
  static constexpr unsigned kWholeTripMax = 0x7fff0000u;
  std::string kType() const { return wholeForm() ? "int" : "long long"; }
  // The type of a thread's offsets and steps of operand `o`.
  std::string offsetType(const StagedOperand& o) const { return narrowOffsets(o) ? "unsigned" : "long long"; }
  std::string groupFlags() const;
  bool narrowOffsets(const StagedOperand& o) const;
  std::string offsetSum(const StagedOperand& o, const std::string& first, const std::string& k,
                        const std::string& step) const;
  std::string offsetProduct(const StagedOperand& o, const std::string& a, const std::string& b) const;
  void copyElements(bool checked);
  // Operand p staged k-major and swizzled (the row operand of an entry on warpgroups).
  bool swizzled(std::size_t p) const { return wg_ && p == tc_->rowOperand; }
  // Operand p staged in boxes of 32 columns x the step's k, swizzled as a bulk tensor copy lays
  // them (the column operand of an entry on warpgroups that takes tensor maps, whichever path
  // copies its tile).
  bool boxed(std::size_t p) const { return bulk() && p == tc_->colOperand; }
  // Its element (k `q`, column `r` of the block's) in stage `stage`.
  std::string boxedAt(std::size_t p, const std::string& stage, const std::string& q, const std::string& r) const {
    return "culift_s" + str(p) + "[" + stage + "][((" + r + ") >> 5) * " + str(kWarpgroupBox * kStep_) + " + (" + q +
           ") * " + str(kWarpgroupBox) + " + ((((" + r + ") & 31) >> 2) ^ ((" + q + ") & 7)) * 4 + ((" + r + ") & 3)]";
  }
  // The entry copies whole tiles by bulk tensor copies where the runtime's maps hold.
  bool bulk() const { return wg_ && !e_.tensorMaps.empty(); }
  void bulkSetup();
  void bulkCopies();
  void bulkIssue();
  void copier();
  void prefetchEpilogue();
  void specializedLoop();
  // A barrier of the threads that copy and multiply: the block's, or the workers' alone where a
  // copying warpgroup does not wait at it.
  std::string sync() const { return specialized_ ? "culift_sync_workers();" : "__syncthreads();"; }
  // Every thread's wait for the bulk copies of stage culift_st, at the phase it counts for the stage.
  void bulkWait() {
    out_.say("culift_barrier_wait(&culift_full[culift_st], (culift_phases >> culift_st) & 1u);");
    out_.say("culift_phases ^= 1u << culift_st;");
  }
  std::string stagedAt(std::size_t p) const;
  bool stepped(const StagedOperand& o) const;
  bool grouped(const StagedOperand& o) const;
  void groupSteps(std::size_t p, bool blockFirst = false);
  void indexAt(const StagedOperand& o, const std::string& var, const std::string& row, const std::string& k,
               const std::string& minus);
  // Whether a grouped operand's groups are 4 k of one row (the swizzled row operand), not 4 rows of one k.
  bool groupsAlongK(const StagedOperand& o) const { return wg_ && &o == &a_.operands[tc_->rowOperand]; }
  // The groups of a row of k (along k), or of a k's rows.
  unsigned groupsPerRow(const StagedOperand& o) const { return (groupsAlongK(o) ? kStep_ : rowsOf(o)) / 4; }
  // The row and the k within the tile of the thread's first group (G groups a row: along k, k
  // 4 (t % G) of row t / G; else rows 4 (t % G) of k t / G).
  std::string groupRow(const StagedOperand& o) const {
    const std::string g = str(groupsPerRow(o));
    return groupsAlongK(o) ? "(int)threadIdx.x / " + g : "(int)threadIdx.x % " + g + " * 4";
  }
  std::string groupK(const StagedOperand& o) const {
    const std::string g = str(groupsPerRow(o));
    return groupsAlongK(o) ? "(int)threadIdx.x % " + g + " * 4" : "(int)threadIdx.x / " + g;
  }
  std::string rowOfElement(const StagedOperand& o, const std::string& e) const;
  struct ElementLoop {
    CodeWriter::Scope each;
    std::optional<CodeWriter::Scope> partial;  // closes before `each`
  };
  // `unrolled`: the loop unrolled (each element's address a step from the last).
  ElementLoop threadElements(const StagedOperand& o, bool unrolled = true);
  std::string kOfElement(const StagedOperand& o, const std::string& e) const;
  std::string firstRow(const StagedOperand& o) const { return rowOfElement(o, "(int)threadIdx.x"); }
  std::string firstK(const StagedOperand& o) const { return kOfElement(o, "(int)threadIdx.x"); }
  void steps();
  void findScaled();
  void scaleStage();
  void stepRewrites();
  void kStepBody();
  void kSteps(bool whole);
  void mmaSteps(bool whole);
  void wgmmaSteps(bool whole);
  void loop();
  void loopOverK();
  void threadTile();
  void epilogue();
  unsigned rowsOf(const StagedOperand& o) const { return o.axis == 0 ? e_.tileRows : e_.tileCols; }

  const Module& module_;
  const PlanEntry& e_;
  const UniformPrologue uniform_;
  const std::optional<TensorCoreForm> tc_;  // a tensor-core entry's loop
  const bool wg_;                           // the wgmma body of an entry on warpgroups
  const bool fallback_;                     // the mma.sync body of an entry on warpgroups
  // An entry with a copying warpgroup (tiles.hpp: kWarpgroupCopiers); its threads past workers_
  // copy (the wgmma body) or leave at once (the mma.sync body).
  const bool specialized_;
  const unsigned workers_;  // the threads that multiply and make the threads' copies (all but the copiers)
  const unsigned pad_;      // of each staged row, in elements
  const unsigned tm_, tn_;  // outputs per thread along i, j
  // The checked form of a deep pipeline's entry (its stages within the whole form's memory).
  const bool shallow_;
  const bool deep_;  // k 16 a tile in two stages (deepPipeline: the whole form of such an entry)
  const unsigned stages_, kStep_;
  const bool triangle_;
  const std::string rowOf_, colOf_, bit_;
  bool fast_ = false;                            // a versioned entry's form being written: every tile whole
  PrintRewrites perOut_;                         // the statements, per output of the register tile
  std::vector<VarId> paramCopies_;               // per-output copies of assigned parameters
  std::map<VarId, std::string> registerArrays_;  // the [tm][tn] register array of each
  std::vector<std::pair<std::string, std::string>> uniformCopies_;  // per-output register, uniform value
  PrintRewrites step_;                                              // the loop body: operands from the staged tile
  // Staged operands that the loop body reads only times one uniform factor (syr2k's A[j * nk + k]
  // * alpha): the factor's text, and the products the stage holds instead of the elements.
  std::map<std::size_t, std::string> scaled_;
  std::vector<std::pair<std::size_t, const Expr*>> scaledProducts_;
};

TileWriter::PerOutput TileWriter::perOutput(const std::string& what, bool declareI, bool declareJ) {
  out_.say("// " + what);
  out_.say("#pragma unroll");
  CodeWriter::Scope outer = out_.open("for (int culift_m = 0; culift_m < " + str(tm_) + "; ++culift_m)");
  out_.say("#pragma unroll");
  CodeWriter::Scope inner = out_.open("for (int culift_n = 0; culift_n < " + str(tn_) + "; ++culift_n)");
  if (declareI) out_.say("const " + typeOf(axisVar(0)) + " " + name(axisVar(0)) + " = " + rowOf_ + ";");
  if (declareJ) out_.say("const " + typeOf(axisVar(1)) + " " + name(axisVar(1)) + " = " + colOf_ + ";");
  return {std::move(outer), std::move(inner)};
}

void TileWriter::stagedTiles() {
  std::vector<SharedArray> arrays;
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    const std::string what = name(o.array) + "[" + printer_.printExpression(*o.index) + "]";
    if (swizzled(p)) {
      // Each stage rows of k (128 bytes), k's groups of 4 swizzled (stagedAt): the layout the
      // tensor cores read through culift_wgmma_descriptor. Its stages are 1024-byte aligned.
      arrays.push_back({"culift_s" + str(p), std::string(spelling(o.element)),
                        "[" + str(stages_) + "][" + str(rowsOf(o) * kStep_) + "]", what + ", k-major, swizzled",
                        std::size_t{stages_} * kStep_ * rowsOf(o) * byteSize(o.element)});
      continue;
    }
    if (boxed(p)) {
      arrays.push_back({"culift_s" + str(p), std::string(spelling(o.element)),
                        "[" + str(stages_) + "][" + str(rowsOf(o) * kStep_) + "]",
                        what + ", boxes of " + str(kWarpgroupBox) + " columns, swizzled",
                        std::size_t{stages_} * kStep_ * rowsOf(o) * byteSize(o.element)});
      continue;
    }
    arrays.push_back({"culift_s" + str(p), std::string(spelling(o.element)),
                      "[" + str(stages_) + "][" + str(kStep_) + "][" + str(rowsOf(o) + pad_) + "]", what,
                      std::size_t{stages_} * kStep_ * (rowsOf(o) + pad_) * byteSize(o.element)});
  }
  declareShared(e_, arrays, wg_ ? 1024 : 16, fallback_ || shallow_);
}

// The staged element (culift_q, culift_r) of operand p in stage culift_sc: [k][row], or in the
// swizzled rows of k of an entry on warpgroups (group k / 4 of row r at group (k / 4) ^ (r % 8)).
std::string TileWriter::stagedAt(std::size_t p) const {
  if (swizzled(p))
    return "culift_s" + str(p) + "[culift_sc][culift_r * " + str(kStep_) +
           " + (((culift_q >> 2) ^ (culift_r & 7)) << 2) + (culift_q & 3)]";
  if (boxed(p)) return boxedAt(p, "culift_sc", "culift_q", "culift_r");
  return "culift_s" + str(p) + "[culift_sc][culift_q][culift_r]";
}

// Where the block's tile starts, as its mapping says.
void TileWriter::blockOrigin() {
  if (!triangle_) {
    // A part of a launch starts at row culift_first (at batch culift_first where batched).
    out_.say("const int culift_i0 = " + std::string(batched() ? "" : "(int)culift_first + ") + "blockIdx.y * " +
             str(e_.tileRows) + ";");
    out_.say("const int culift_j0 = blockIdx.x * " + str(e_.tileCols) + ";");
    wholeTile();
    return;
  }
  out_.say("// Block b takes tile (culift_bi, culift_bj) with culift_bj <= culift_bi, row by row, and stores");
  out_.say("// each result at (i, j) and (j, i); a band of the triangle (a part) starts at tile row");
  out_.say("// culift_first / " + str(e_.tileRows) + ".");
  out_.say("const long long culift_bi0 = culift_first / " + str(e_.tileRows) + ";");
  out_.say("const long long culift_b = culift_bi0 * (culift_bi0 + 1) / 2 + blockIdx.x;");
  out_.say("long long culift_bi = (long long)((sqrtf(8.0f * (float)culift_b + 1.0f) - 1.0f) * 0.5f);");
  out_.say("while (culift_bi * (culift_bi + 1) / 2 > culift_b) --culift_bi;");
  out_.say("while ((culift_bi + 1) * (culift_bi + 2) / 2 <= culift_b) ++culift_bi;");
  out_.say("const long long culift_bj = culift_b - culift_bi * (culift_bi + 1) / 2;");
  out_.say("const int culift_i0 = (int)culift_bi * " + str(e_.tileRows) + ";");
  out_.say("const int culift_j0 = (int)culift_bj * " + str(e_.tileCols) + ";");
  wholeTile();
}

void TileWriter::wholeTile() {
  if (wholeForm()) return;  // every tile whole
  out_.say("const bool culift_whole = culift_ni - culift_i0 >= " + str(e_.tileRows) +
           " && culift_nj - culift_j0 >= " + str(e_.tileCols) + ";  // every row and column of the block in range");
}

// The statements before the loop that every output runs alike, once (UniformPrologue); locals
// live across the loop, and scalar parameters the body assigns (a copy per output, from the
// parameter or from the value those statements left): one register per output.
void TileWriter::registers() {
  perOut_ = prologueRewrites();
  // A zero that starts a sum is a plain literal: the loop only adds to the sum, so the constant
  // meets no comparison that the device compiler could turn into a max / min (culift_zero's
  // reason), and culift_zero's register copies cost the 128-wide tiles registers (130 instead of
  // 127 for GramDot_sym128, which then fits one block per SM instead of two).
  std::string notSums;
  if (auto sums = reassociableSums(fn_, a_, notSums)) perOut_.plainZero.insert(sums->begin(), sums->end());
  std::set<VarId> perOutput;  // copied from the uniform value into a register per output
  if (uniform_.count) {
    out_.say("// The statements before the loop that give every output the same values, once.");
    PrintRewrites once = perOut_;
    for (VarId v : uniform_.vars) {
      if (perOut_.dropped.count(v)) continue;
      const std::string reg = "culift_u_" + name(v) + "_" + str(v);
      out_.say(typeOf(v) + " " + reg + " = " + (fn_.vars[v].isParam ? name(v) : "{}") + ";");
      once.vars[v] = reg;
      if (!fn_.vars[v].isParam) once.hoisted.insert(v);
      perOut_.vars[v] = reg;
      perOut_.hoisted.insert(v);
      if (uniform_.modified.count(v)) perOutput.insert(v);
    }
    for (std::size_t k = 0; k < uniform_.count; ++k) printWith(once, *a_.prologue[k]);
  }
  std::set<VarId> registered;  // given a register per output
  auto perOutputRegister = [&](VarId v) {
    registered.insert(v);
    const std::string reg = "culift_" + name(v) + "_" + str(v);
    out_.say(typeOf(v) + " " + reg + "[" + str(tm_) + "][" + str(tn_) + "] = {};");
    registerArrays_[v] = reg;
    if (perOutput.count(v)) {
      auto literal = uniform_.literalInits.find(v);
      uniformCopies_.emplace_back(reg + "[culift_m][culift_n]", literal != uniform_.literalInits.end()
                                                                    ? printWith(perOut_, *literal->second)
                                                                    : perOut_.vars.at(v));
    }
    perOut_.vars[v] = reg + "[culift_m][culift_n]";
  };
  auto isUniform = [&](VarId v) {
    return std::find(uniform_.vars.begin(), uniform_.vars.end(), v) != uniform_.vars.end() && !perOut_.dropped.count(v);
  };
  for (VarId v : a_.live) {
    if (isUniform(v) && !perOutput.count(v)) continue;  // one register, the uniform value
    perOutputRegister(v);
    perOut_.hoisted.insert(v);
  }
  for (VarId v : a_.assignedParams) {
    if (isUniform(v) && !perOutput.count(v)) continue;
    if (!isUniform(v)) paramCopies_.push_back(v);
    perOutputRegister(v);
  }
  // Uniform locals a later statement changes that are not live across the loop (only the rest
  // of the statements before it use them) are per output too.
  for (VarId v : perOutput)
    if (!registered.count(v)) perOutputRegister(v);
  if (a_.earlyReturn) {
    out_.say("unsigned long long culift_done = 0;  // outputs whose statements returned before the loop");
    if (returnsValue()) out_.say(returnType() + " culift_res[" + str(tm_) + "][" + str(tn_) + "];");
  }
}

void TileWriter::prologue() {
  const bool value = returnsValue();
  perOut_.returns = [this, value](const std::string& v) {
    return "{ " + (value ? "culift_res[culift_m][culift_n] = " + v + "; " : std::string()) + "culift_done |= " + bit_ +
           "; continue; }";
  };
  PerOutput each = perOutput("The statements before the loop, per output.");
  out_.say("if (" + name(axisVar(0)) + " >= culift_ni || " + name(axisVar(1)) + " >= culift_nj) " +
           (a_.earlyReturn ? "{ culift_done |= " + bit_ + "; continue; }  // nothing to compute" : "continue;"));
  for (VarId v : paramCopies_) out_.say(perOut_.vars.at(v) + " = " + name(v) + ";");
  for (const auto& [reg, value] : uniformCopies_) out_.say(reg + " = " + value + ";");
  for (std::size_t k = uniform_.count; k < a_.prologue.size(); ++k) printWith(perOut_, *a_.prologue[k]);
}

// The copies of one tile of every operand into stage culift_sc, k from culift_kc (both declared
// by the caller). A whole tile of a block whose rows and columns are all in range copies every
// element unchecked, k counted in the counter's own type from the tile's first (each element's
// address then a step from the tile before: measured on an H200 the checked copies took 17
// instructions an element, a third of the 128-wide tile's instructions).
void TileWriter::copyTile() {
  {
    CodeWriter::Scope any = out_.open("if (culift_kc < culift_trip)");
    auto unchecked = [&] {
      if (std::any_of(a_.operands.begin(), a_.operands.end(), [&](const StagedOperand& o) { return !stepped(o); }))
        out_.say("const " + counterType() + " culift_kb = (" + counterType() + ")(culift_lo + culift_kc);");
      copyElements(false);
    };
    if (wholeForm()) {
      unchecked();  // every tile of the block whole: every copy unchecked
    } else {
      // A grouped operand's whole tile is copied unchecked only in 16-byte groups (culift_w<p>);
      // another layout takes the element-by-element copies of a partial tile.
      std::optional<CodeWriter::Scope> byMaps;  // its other branch holds the copies by the threads
      if (bulk() && !specialized_) {
        byMaps.emplace(out_.open("if (culift_kc <= culift_kmax)"));
        bulkCopies();
        byMaps->otherwise();
      }
      CodeWriter::Scope whole = out_.open("if (culift_whole" + groupFlags() + " && culift_kc + " + str(kStep_) +
                                          " <= culift_trip)");
      unchecked();
      whole.otherwise();
      copyElements(true);
    }
  }
  out_.say("culift_copy_commit();");
}

void TileWriter::copyElements(bool checked) {
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    const unsigned rows = rowsOf(o);
    const VarId rowVar = axisVar(o.axis);
    // A count the compiler knows (the loop unrolls, each element's address a step from the
    // last); measured on an H200 the loop from threadIdx.x stayed a loop, 26 instructions an element.
    const unsigned elements = rows * kStep_, steps = (elements + workers_ - 1) / workers_;
    const std::string shared = stagedAt(p);
    if (!checked && grouped(o)) {
      // 16 bytes a copy (a whole tile is copied so only where culift_w<p>): groups of 4 consecutive
      // rows of one k (or of 4 consecutive k of one row), each thread's a constant step apart.
      const std::string P = str(p), stride = str(workers_ / groupsPerRow(o));
      CodeWriter::Scope tile = out_.open("");
      out_.say("const " + std::string(spelling(o.element)) + "* culift_g = " + name(o.array) + " + " +
               offsetSum(o, "culift_y" + P, "culift_kc", "culift_dk" + P) + ";");
      out_.say("#pragma unroll");
      CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(elements / 4 / workers_) +
                                         "; ++culift_u)");
      // The thread's groups step along the other axis than the groups': rows along k, k along rows.
      const bool alongK = groupsAlongK(o);
      const std::string step = " + culift_u * " + stride;
      out_.say("const int culift_r = " + groupRow(o) + (alongK ? step : "") + ", culift_q = " + groupK(o) +
               (alongK ? "" : step) + ";");
      out_.say("culift_copy_async16(&" + shared + ", culift_g + " +
               offsetProduct(o, "culift_u", stride + " * culift_d" + (alongK ? "r" : "k") + P) + ", 16);");
      continue;
    }
    if (!checked && stepped(o)) {
      // The thread's elements of this tile: the first's index, then a constant step apart.
      const std::string P = str(p);
      CodeWriter::Scope tile = out_.open("");
      out_.say("const " + std::string(spelling(o.element)) + "* culift_g = " + name(o.array) + " + " +
               offsetSum(o, "culift_x" + P, "culift_kc", "culift_dk" + P) + ";");
      out_.say("#pragma unroll");
      CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(steps) + "; ++culift_u)");
      out_.say("const int culift_r = " + firstRow(o) +
               (o.kContiguous ? " + culift_u * " + str(workers_ / kStep_) : "") + ", culift_q = " + firstK(o) +
               (o.kContiguous ? "" : " + culift_u * " + str(workers_ / rows)) + ";");
      out_.say("culift_copy_async(&" + shared + ", culift_g + " + offsetProduct(o, "culift_u", "culift_du" + P) + ");");
      continue;
    }
    // On warpgroups the column operand's partial tiles' copies stay a loop: unrolled, the device
    // assembler kept each element's address across the loop over k, registers the 256-row tile
    // lacks (ptxas, sm_90a: 200 B spilled). The row operand's stay unrolled: as a loop, they took
    // the 256-row tile at 4096³ from 0.623 ms to 0.736 on an H100 (its whole tiles' path alike,
    // bench/gpu/wgmma_variants.cu; both unrolled, spilling: 0.626). With bulk tensor copies the same:
    // the row operand's rolled too, the 256-row tile spilled nothing but ran 0.682 ms where, unrolled
    // (36 B spilled in the threads' copies, none in the loop of tensor copies), it runs 0.547-0.568.
    // In an entry with a copying warpgroup (whose workers have 232 registers, not 255) the threads'
    // copies take the tiles the maps leave, and both operands' partial copies are loops.
    const ElementLoop each = threadElements(o, !(checked && wg_ && (specialized_ || !swizzled(p))));
    out_.say("const " + typeOf(rowVar) + " " + name(rowVar) + " = " + (o.axis == 0 ? "culift_i0" : "culift_j0") +
             " + culift_r;");
    std::optional<CodeWriter::Scope> inRange;
    if (checked) {
      inRange.emplace(out_.open("if (" + name(rowVar) + " < " + (o.axis == 0 ? "culift_ni" : "culift_nj") +
                                " && culift_kc + culift_q < culift_trip)"));
      out_.say(counterAt("culift_kc + culift_q"));
    } else {
      out_.say("const " + counterType() + " " + name(a_.counter) + " = culift_kb + culift_q;");
    }
    copyElement(o, shared);
    if (checked && swizzled(p)) {
      // The tensor cores read the whole stage: past the rows and the trip count, zeros.
      inRange->otherwise();
      out_.say(shared + " = 0.0f;");
    }
  }
}

// An operand whose index is affine in k and its axis, copied by a block's threads in rounds that
// each cover whole rows (along k) or whole steps of k (along rows): each thread's elements of a
// whole tile lie a constant step apart, and a tile a constant step from the one before.
bool TileWriter::stepped(const StagedOperand& o) const {
  const unsigned rows = rowsOf(o);
  return o.affine && workers_ % kStep_ == 0 && workers_ % rows == 0 && (rows * kStep_) % workers_ == 0;
}
// A stepped operand of 4-byte elements laid out along its rows (B[k * n + j] for the rows j):
// where its index steps by one element a row and by a multiple of 4 a k, and the tile's first
// element is 16-byte aligned (culift_w<p>, computed once), a whole tile copies in groups of 4 rows
// of one k, 16 bytes a copy (a quarter of the copy instructions), each thread's groups a constant
// step apart; elsewhere its tiles copy element by element, as partial tiles do (one base index a
// thread, not two: the 128-wide tiles have no registers to spare). The stage's rows are 16-byte
// aligned (pads of 4 or 8 elements).
//
// On warpgroups both operands: the row operand, staged k-major and swizzled, where its index steps
// by one element a k and by a multiple of 4 a row, in groups of 4 k of one row (the swizzle
// permutes a row's groups of 4 k: each group lands whole, 16-byte aligned in its 1024-byte aligned
// stage).
bool TileWriter::grouped(const StagedOperand& o) const {
  const unsigned rows = rowsOf(o);
  // The 128-wide exact tiles and the entry on warpgroups only: in the 64-wide ones and the mma.sync
  // entries the flag and the group's index cost registers that spill (nvcc 13, sm_90).
  if (!wg_ && (tc_ || e_.tileRows < 128)) return false;
  const bool alongK = groupsAlongK(o);
  return stepped(o) && o.kContiguous == alongK && byteSize(o.element) == 4 && (alongK ? kStep_ : rows) % 4 == 0 &&
         (alongK || pad_ % 4 == 0) && workers_ % groupsPerRow(o) == 0 && (rows * kStep_ / 4) % workers_ == 0;
}

// The row and the k within the tile of element `e` of a copy (along k: kStep elements a row;
// along rows: a row's elements of one k, then the next k).
std::string TileWriter::rowOfElement(const StagedOperand& o, const std::string& e) const {
  return o.kContiguous ? e + " / " + str(kStep_) : e + " % " + str(rowsOf(o));
}
std::string TileWriter::kOfElement(const StagedOperand& o, const std::string& e) const {
  return o.kContiguous ? e + " % " + str(kStep_) : e + " / " + str(rowsOf(o));
}

// The loop over this thread's elements of a tile of `o`, element culift_e = threadIdx.x + u *
// threads at row culift_r and k culift_q of the tile (those below the tile's size).
TileWriter::ElementLoop TileWriter::threadElements(const StagedOperand& o, bool unrolled) {
  const unsigned elements = rowsOf(o) * kStep_, steps = (elements + workers_ - 1) / workers_;
  out_.say(unrolled ? "#pragma unroll" : "#pragma unroll 1");
  ElementLoop loop{out_.open("for (int culift_u = 0; culift_u < " + str(steps) + "; ++culift_u)"), std::nullopt};
  out_.say("const int culift_e = threadIdx.x + culift_u * " + str(workers_) + ";");
  if (elements % workers_) loop.partial.emplace(out_.open("if (culift_e < " + str(elements) + ")"));
  out_.say("const int culift_r = " + rowOfElement(o, "culift_e") + ", culift_q = " + kOfElement(o, "culift_e") + ";");
  return loop;
}

// For each stepped operand: culift_x<p>, the index of the thread's first element of the tile at
// k = 0; culift_dk<p>, the index's step per k; culift_du<p>, the step from one of the thread's
// elements to its next. Each step is the difference of the index at neighbouring (row, k). (Kept
// per thread: measured on an H200, the block's values and a per-thread offset apart, the 128-wide
// GEMM took 3.48 ms instead of 3.38.)
void TileWriter::steps() {
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    if (!stepped(o)) continue;
    if (grouped(o)) {
      groupSteps(p);
      continue;
    }
    const std::string P = str(p);
    out_.say(offsetType(o) + " culift_x" + P + ", culift_dk" + P + ", culift_du" + P + ";  // " + name(o.array) +
             ": its elements in whole tiles");
    // The index at the thread's first element moved by `row` and `k`, less `minus`.
    auto at = [&](const std::string& var, const std::string& row, const std::string& k, const std::string& minus) {
      indexAt(o, var, firstRow(o) + row, firstK(o) + k, minus);
    };
    at("culift_x" + P, "", "", "");
    at("culift_dk" + P, "", " + 1", " - culift_x" + P);
    if (o.kContiguous) {
      at("culift_du" + P, " + 1", "", " - culift_x" + P);
      out_.say("culift_du" + P + " *= " + str(workers_ / kStep_) + ";");
    } else {
      out_.say("culift_du" + P + " = culift_dk" + P + " * " + str(workers_ / rowsOf(o)) + ";");
    }
  }
}

// `var` = the index of `o` at row `row` of the block's tile and k `k` (from the loop's start),
// less `minus`, in a scope of its own.
void TileWriter::indexAt(const StagedOperand& o, const std::string& var, const std::string& row, const std::string& k,
                         const std::string& minus) {
  const VarId rowVar = axisVar(o.axis);
  CodeWriter::Scope s = out_.open("");
  out_.say("const " + typeOf(rowVar) + " " + name(rowVar) + " = " + (o.axis == 0 ? "culift_i0" : "culift_j0") + " + " +
           row + ";");
  out_.say(counterAt(k));
  out_.say(var + " = (long long)(" + printWith(inlineRewrites_, *o.index) + ")" + minus + ";");
}

// For a grouped operand: culift_y<p>, the index of the thread's first group (groupRow, groupK);
// culift_dk<p> and culift_dr<p>, the index's steps per k and per row; culift_w<p>, whether every
// group is 16 bytes of consecutive elements, aligned (then the same in every thread). With
// `blockFirst`, culift_y<p> is the index of the block's first group (thread 0's), the same in every
// thread: the index is affine, each thread's first group a multiple of 4 steps along the groups'
// axis and whole steps along the other from it, so that where the steps allow groups, the
// threads' first groups are all aligned or all not.
void TileWriter::groupSteps(std::size_t p, bool blockFirst) {
  const StagedOperand& o = a_.operands[p];
  const std::string P = str(p);
  const bool alongK = groupsAlongK(o);
  const bool flag = !wholeForm();       // the whole form: the dispatch's flag held
  const bool rowStep = flag || alongK;  // groups along k step by rows from one copy to the next
  out_.say(offsetType(o) + " culift_y" + P + ", culift_dk" + P + (rowStep ? ", culift_dr" + P : std::string()) +
           ";  // " + name(o.array) + ": its " + (blockFirst ? "block's first group" : "groups") + " of 4 " +
           (alongK ? "k" : "rows") + " in whole tiles");
  auto at = [&](const std::string& var, const std::string& row, const std::string& k, const std::string& minus) {
    indexAt(o, var, (blockFirst ? "0" : groupRow(o)) + row, (blockFirst ? "0" : groupK(o)) + k, minus);
  };
  at("culift_y" + P, "", "", "");
  at("culift_dk" + P, "", " + 1", " - culift_y" + P);
  if (!rowStep) return;
  at("culift_dr" + P, " + 1", "", " - culift_y" + P);
  if (!flag) return;
  // Consecutive along the groups (a step of 1), the other axis's step a multiple of 4, the first
  // group aligned.
  const std::string along = "culift_d" + std::string(alongK ? "k" : "r") + P,
                    across = "culift_d" + std::string(alongK ? "r" : "k") + P;
  out_.say("const bool culift_w" + P + " = " + along + " == 1 && (" + across +
           " & 3) == 0 && ((reinterpret_cast<unsigned long long>(" + name(o.array) +
           ") / 4 + (unsigned long long)culift_y" + P + ") & 3) == 0;  // 16-byte groups");
}

// A staged operand whose every read in the loop body is one factor of a product whose other
// factor is uniform — a literal, or a scalar parameter nothing assigns — of the element's type,
// the same factor at every read (syr2k's A[j * nk + k] * alpha, alpha * A[i * nk + k] * B[...]):
// its stage holds the products (each thread multiplies the elements it copied once the copies
// land, before the barrier that shows them to the block), and each output reads the product from
// the stage. The same multiplication of the same values: the bits of the product the body
// computes (a product is the same whichever operand comes first). Per output and k one multiply
// fewer; per tile each thread's own copies once. Not on tensor cores (their steps read the stages
// as fragments) and not for an operand copied in 16-byte groups (their elements are each thread's
// in another order).
void TileWriter::findScaled() {
  scaled_.clear();
  scaledProducts_.clear();
  if (tc_) return;
  const std::set<VarId> assigned = assignedVars(*fn_.body);
  auto factorText = [&](const Expr& f, Scalar element) -> std::optional<std::string> {
    if (!f.type.isValue() || f.type.scalar != element) return std::nullopt;
    if (f.kind == ExprKind::FloatLiteral || f.kind == ExprKind::IntLiteral) return printer_.printExpression(f);
    if (f.kind == ExprKind::VarRef && f.var < fn_.numParams && !assigned.count(f.var) && fn_.vars[f.var].type.isValue())
      return printer_.printExpression(f);
    return std::nullopt;
  };
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    if (grouped(o) || o.reads.empty()) continue;
    std::set<const Expr*> reads(o.reads.begin(), o.reads.end()), covered;
    std::optional<std::string> factor;
    bool same = true;
    std::vector<const Expr*> products;
    forEachExpr(*a_.loop->body, [&](const Expr& e) {
      if (e.kind != ExprKind::Binary || e.binaryOp != BinaryOp::Mul || e.type.scalar != o.element) return;
      for (unsigned side = 0; side < 2; ++side) {
        const Expr* read = e.operands[side].get();
        if (!reads.count(read) || covered.count(read)) continue;
        const std::optional<std::string> f = factorText(*e.operands[1 - side], o.element);
        if (!f) continue;
        same = same && (!factor || *factor == *f);
        factor = f;
        covered.insert(read);
        products.push_back(&e);
        break;
      }
    });
    if (!same || !factor || covered.size() != reads.size()) continue;
    scaled_[p] = *factor;
    for (const Expr* e : products) scaledProducts_.push_back({p, e});
  }
}

// The elements of each scaled operand this thread copied into stage culift_st, times the factor
// (its copies of the stage are complete: culift_copy_wait). Each thread copies the elements
// threadIdx.x + u * threads of a tile, element by element or a constant step apart alike.
void TileWriter::scaleStage() {
  for (const auto& [p, factor] : scaled_) {
    const StagedOperand& o = a_.operands[p];
    out_.say("// " + name(o.array) + "'s elements this thread copied, times " + factor +
             " (every output multiplies them so)");
    const ElementLoop each = threadElements(o);
    const std::string at = "culift_s" + str(p) + "[culift_st][culift_q][culift_r]";
    out_.say(at + " = " + at + " * " + factor + ";");
  }
}

void TileWriter::stepRewrites() {
  step_ = perOut_;
  step_.returns = nullptr;
  // Operand p's staged value for output (culift_m, culift_n).
  auto staged = [&](size_t p) {
    return "culift_v" + str(p) + (a_.operands[p].axis == 0 ? "[culift_m]" : "[culift_n]");
  };
  for (size_t p = 0; p < a_.operands.size(); ++p)
    for (const Expr* read : a_.operands[p].reads) step_.exprs[read] = staged(p);
  for (const auto& [p, product] : scaledProducts_) step_.exprs[product] = staged(p);
}

// One step of k for every output: the operands from the stage, then the loop body.
void TileWriter::kStepBody() {
  const Stmt& loopBody = *a_.loop->body;
  if (mentions(loopBody, a_.counter, step_)) out_.say(counterAt("culift_kt + culift_kk"));
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    const unsigned t = o.axis == 0 ? tm_ : tn_;
    const unsigned groupStride = rowsOf(o) / (t / 4);
    const std::string v = "culift_v" + str(p);
    out_.say(std::string(spelling(o.element)) + " " + v + "[" + str(t) + "];");
    out_.say("#pragma unroll");
    out_.say("for (int culift_u = 0; culift_u < " + str(t) + "; ++culift_u) " + v + "[culift_u] = culift_s" + str(p) +
             "[culift_st][culift_kk][(culift_u / 4) * " + str(groupStride) + " + " +
             (o.axis == 0 ? "culift_ty" : "culift_tx") + " * 4 + culift_u % 4];");
  }
  PerOutput each = perOutput("The loop body, per output.", mentions(loopBody, axisVar(0), step_),
                             mentions(loopBody, axisVar(1), step_));
  printBody(step_, loopBody);
}

// The steps of k of a tile: all of them (`whole`), or those below the trip count.
void TileWriter::kSteps(bool whole) {
  if (tc_) return mmaSteps(whole);
  if (whole) {
    out_.say("#pragma unroll");
    CodeWriter::Scope steps = out_.open("for (int culift_kk = 0; culift_kk < " + str(kStep_) + "; ++culift_kk)");
    kStepBody();
    return;
  }
  out_.say("#pragma unroll 1");
  CodeWriter::Scope steps = out_.open(
      "for (int culift_kk = 0; culift_kk < (int)(culift_trip - culift_kt); ++culift_kk)");
  kStepBody();
}

// The steps of k of a tile on tensor cores: each warp's fragments of the staged tiles, rounded to
// the format, and an mma per 16 x 8 tile of its sums (registers [2u][2v], [2u][2v + 1], [2u + 1][2v],
// [2u + 1][2v + 1]). In the last tile, the fragments' elements past the trip count are zeros.
void TileWriter::mmaSteps(bool whole) {
  if (wg_) return wgmmaSteps(whole);
  const bool tf32 = fn_.tensorCores == TensorCores::TF32;
  const unsigned mmaK = tf32 ? 8 : 16, mt = tm_ / 2, nt = tn_ / 2;
  const std::string rowsA = str(e_.tileRows + pad_), rowsB = str(e_.tileCols + pad_);
  const std::string pack = fn_.tensorCores == TensorCores::BF16 ? "culift_bf16x2" : "culift_f16x2";
  if (!whole) out_.say("const int culift_rem = (int)(culift_trip - culift_kt);  // the steps of k left in this tile");
  out_.say("#pragma unroll");
  CodeWriter::Scope steps = out_.open("for (int culift_kk = 0; culift_kk < " + str(kStep_) +
                                      "; culift_kk += " + str(mmaK) + ")");
  if (!whole) out_.say("if (culift_kk >= culift_rem) break;");
  out_.say("const int culift_kq = culift_kk + " + std::string(tf32 ? "culift_t4" : "2 * culift_t4") +
           ";  // the lane's first k of the fragments");
  // Element (row + r, kq + k) of the staged tile at culift_p, zero past the trip count.
  auto element = [&](const std::string& rows, unsigned r, unsigned k) {
    const std::string offset = !k ? str(r) : str(k) + " * " + rows + (r ? " + " + str(r) : std::string());
    const std::string at = "culift_p[" + offset + "]";
    return whole ? at : "(culift_kq" + (k ? " + " + str(k) : std::string()) + " < culift_rem ? " + at + " : 0.0f)";
  };
  auto value = [&](const std::string& rows, unsigned r, unsigned k) {
    return tf32 ? "culift_tf32(" + element(rows, r, k) + ")"
                : pack + "(" + element(rows, r, k) + ", " + element(rows, r, k + 1) + ")";
  };
  const unsigned k4 = tf32 ? 4 : 8;  // the fragments' second k
  out_.say("unsigned culift_fa[" + str(mt) + "][4], culift_fb[" + str(nt) + "][2];");
  auto fragments = [&](const char* array, unsigned count, unsigned operand, const std::string& origin, unsigned stride,
                       const std::string& rows, const std::vector<std::pair<unsigned, unsigned>>& at) {
    out_.say("#pragma unroll");
    CodeWriter::Scope each = out_.open("for (int culift_u = 0; culift_u < " + str(count) + "; ++culift_u)");
    out_.say("const float* culift_p = &culift_s" + str(operand) + "[culift_st][culift_kq][" + origin +
             " + culift_u * " + str(stride) + " + culift_g];");
    for (std::size_t q = 0; q < at.size(); ++q)
      out_.say(std::string(array) + "[culift_u][" + str(q) + "] = " + value(rows, at[q].first, at[q].second) + ";");
  };
  fragments("culift_fa", mt, tc_->rowOperand, "culift_wm", 16, rowsA, {{0, 0}, {8, 0}, {0, k4}, {8, k4}});
  fragments("culift_fb", nt, tc_->colOperand, "culift_wn", 8, rowsB, {{0, 0}, {0, k4}});
  const std::string& acc = registerArrays_.at(tc_->sum);
  out_.say("#pragma unroll");
  CodeWriter::Scope us = out_.open("for (int culift_u = 0; culift_u < " + str(mt) + "; ++culift_u)");
  out_.say("#pragma unroll");
  CodeWriter::Scope vs = out_.open("for (int culift_v = 0; culift_v < " + str(nt) + "; ++culift_v)");
  auto sum = [&](const char* m, const char* n) { return acc + "[2 * culift_u" + m + "][2 * culift_v" + n + "]"; };
  out_.say(std::string(tf32                                   ? "culift_mma_tf32"
                       : fn_.tensorCores == TensorCores::BF16 ? "culift_mma_half<true>"
                                                              : "culift_mma_half<false>") +
           "(" + sum("", "") + ", " + sum("", " + 1") + ", " + sum(" + 1", "") + ", " + sum(" + 1", " + 1") +
           ", culift_fa[culift_u][0], culift_fa[culift_u][1], culift_fa[culift_u][2], culift_fa[culift_u][3], "
           "culift_fb[culift_v][0], culift_fb[culift_v][1]);");
}

// The steps of k of a tile on warpgroups: the warp's fragments of the column operand's tile
// (columns culift_wn + g and + 8 at k t and t + 4 of each step of 8; past the trip count zeros),
// rounded to tf32, and per step one wgmma of its warpgroup's 64 columns by the block's rows (the
// row operand's swizzled tile, read by the tensor cores as it lies: zeros past the trip count, as
// its copies left them), waited for before the tile's stage is copied into again.
void TileWriter::wgmmaSteps(bool whole) {
  const std::string row = str(tc_->rowOperand);
  if (!whole) out_.say("const int culift_rem = (int)(culift_trip - culift_kt);  // the steps of k left in this tile");
  out_.say("unsigned culift_fa[" + str(kStep_ / 8) + "][4];");
  {
    out_.say("#pragma unroll");
    CodeWriter::Scope each = out_.open("for (int culift_ks = 0; culift_ks < " + str(kStep_ / 8) + "; ++culift_ks)");
    out_.say("const int culift_kq = culift_ks * 8 + culift_t4;  // the lane's first k of the step");
    const std::string col = str(tc_->colOperand), pitch = str(e_.tileCols + pad_);
    const bool boxes = boxed(tc_->colOperand);
    if (!boxes) out_.say("const float* culift_p = &culift_s" + col + "[culift_st][culift_kq][culift_wn + culift_g];");
    const std::pair<unsigned, unsigned> at[4] = {{0, 0}, {8, 0}, {0, 4}, {8, 4}};
    for (unsigned q = 0; q < 4; ++q) {
      const auto [r, k] = at[q];
      const std::string element =
          boxes ? boxedAt(tc_->colOperand, "culift_st", "culift_kq" + (k ? " + " + str(k) : std::string()),
                          "culift_wn + culift_g" + (r ? " + " + str(r) : std::string()))
                : "culift_p[" + (!k ? str(r) : str(k) + " * " + pitch + (r ? " + " + str(r) : std::string())) + "]";
      out_.say("culift_fa[culift_ks][" + str(q) + "] = culift_tf32(" +
               (whole ? element
                      : "culift_kq" + (k ? " + " + str(k) : std::string()) + " < culift_rem ? " + element + " : 0.0f") +
               ");");
    }
  }
  out_.say("culift_wgmma_fence();");
  const std::string& acc = registerArrays_.at(tc_->sum);
  out_.say("#pragma unroll");
  out_.say("for (int culift_ks = 0; culift_ks < " + str(kStep_ / 8) + "; ++culift_ks)");
  out_.say("  culift_wgmma_tf32(" + acc +
           ", culift_fa[culift_ks][0], culift_fa[culift_ks][1], culift_fa[culift_ks][2], culift_fa[culift_ks][3], "
           "culift_wgmma_descriptor(&culift_s" +
           row + "[culift_st][culift_ks * 8]));");
  out_.say("culift_wgmma_commit_wait();");
}

// The loop over k, tile by tile, stages - 1 tiles in flight: each step waits for its tile, one
// barrier makes it visible and frees the stage used last, which takes the next copy. A block
// whose outputs all returned before it (the far side of a triangle) skips it.
void TileWriter::loop() {
  findScaled();
  stepRewrites();
  if (!a_.earlyReturn) return loopOverK();
  const unsigned outputs = tm_ * tn_;
  out_.say("// Every output of the block returned before the loop, or has none to compute: no loop.");
  CodeWriter::Scope any = out_.open("if (!__syncthreads_and(culift_done == " +
                                    (outputs == 64 ? std::string("~0ull") : "(1ull << " + str(outputs) + ") - 1") +
                                    "))");
  loopOverK();
}

// The grouped operands' flags, each preceded by " && ".
std::string TileWriter::groupFlags() const {
  std::string groups;
  for (size_t p = 0; p < a_.operands.size(); ++p)
    if (grouped(a_.operands[p])) groups += " && culift_w" + str(p);
  return groups;
}

// In the whole form, an operand indexed by an int expression takes its copies' offsets in 32 bits
// (wrapping as the expression's own arithmetic does; the element a copy reads is one the loop
// reads, so its index is the int the expression gives): fewer registers than 64-bit offsets
// (ptxas, sm_90: the GEMM's whole form spilled 12 B in 64 bits, 4 B in 32).
bool TileWriter::narrowOffsets(const StagedOperand& o) const {
  return wholeForm() && o.index->type.scalar == Scalar::I32;
}
// `first + k * step`, the offset of a thread's first element of the tile at k.
std::string TileWriter::offsetSum(const StagedOperand& o, const std::string& first, const std::string& k,
                                  const std::string& step) const {
  if (!narrowOffsets(o)) return "(" + first + " + " + k + " * " + step + ")";
  return "(int)((unsigned)" + first + " + (unsigned)" + k + " * (unsigned)" + step + ")";
}
// `a * b`, the offset of a thread's element from its first (both of them elements the loop reads).
std::string TileWriter::offsetProduct(const StagedOperand& o, const std::string& a, const std::string& b) const {
  if (!narrowOffsets(o)) return a + " * " + b;
  return "(int)((unsigned)" + a + " * (unsigned)(" + b + "))";
}

// The exact tiles (not the triangle's or the tensor-core ones: versionedTile) come in two forms,
// each a device function of its own, and the kernel takes one per block (and batch): where every
// tile of the block is whole (its rows and columns in range, the grouped
// operands aligned, the trip count a multiple of the step), copies unchecked and whole steps of k
// only; elsewhere the checked form. Measured on an H100 (GemmCell, 4096³): the loop without the
// checked copies and the partial steps took 3.17-3.19 ms where the one loop of both took
// 3.49-3.51; both loops in one function spilled (40 B at 128 registers) and ran at 3.49, so the
// checked form is a call: the device assembler gives each form its registers apart. The two forms
// share the entry's dynamic shared memory.
bool TileWriter::versioned() const { return versionedTile(e_); }

// The stages' first copies, then the loop over the tiles.
void TileWriter::loopOverK() {
  if (specialized_ && wg_) return specializedLoop();
  steps();
  if (bulk()) bulkSetup();
  out_.say("// The loop over " + name(a_.counter) + ", tile by tile, " + str(stages_ - 1) +
           (stages_ == 2 ? " tile" : " tiles") + " in flight while one is used.");
  for (unsigned t = 0; t + 1 < stages_; ++t) {
    CodeWriter::Scope first = out_.open("");
    out_.say("const " + kType() + " culift_kc = " + str(t * kStep_) + ";");
    out_.say("const int culift_sc = " + str(t) + ";");
    copyTile();
  }
  if (!rounds()) out_.say("int culift_st = 0;");
  if (bulk()) {
    // The tiles whose copies, and those of the tile stages - 1 on, go by tensor copy: a loop
    // without the threads' copies (inside the general loop below, the entry ran 0.572 ms at 4096³
    // on an H100; in a loop of its own 0.547-0.568).
    out_.say(kType() + " culift_kt = 0;");
    out_.say("#pragma unroll 1");
    CodeWriter::Scope fast = out_.open("for (; culift_kt + " + str((stages_ - 1) * kStep_) +
                                       " <= culift_kmax; culift_kt += " + str(kStep_) + ")");
    bulkWait();
    out_.say(sync());
    {
      CodeWriter::Scope next = out_.open("");
      out_.say("const " + kType() + " culift_kc = culift_kt + " + str((stages_ - 1) * kStep_) + ";");
      out_.say("const int culift_sc = culift_st == 0 ? " + str(stages_ - 1) + " : culift_st - 1;");
      bulkCopies();
    }
    kSteps(true);
    out_.say("culift_st = culift_st == " + str(stages_ - 1) + " ? 0 : culift_st + 1;");
  }
  if (rounds()) {
    out_.say("#pragma unroll 1");
    CodeWriter::Scope rounds = out_.open(
        "for (int culift_kr = 0; culift_kr < culift_trip; culift_kr += " + str(stages_ * kStep_) + ")");
    out_.say("#pragma unroll");
    CodeWriter::Scope round = out_.open("for (int culift_st = 0; culift_st < " + str(stages_) + "; ++culift_st)");
    out_.say("const int culift_kt = culift_kr + culift_st * " + str(kStep_) + ";");
    out_.say("if (culift_kt >= culift_trip) break;");
    threadTile();
    return;
  }
  out_.say("#pragma unroll 1");
  CodeWriter::Scope tiles = out_.open(
      bulk() ? "for (; culift_kt < culift_trip; culift_kt += " + str(kStep_) + ")"
             : "for (" + kType() + " culift_kt = 0; culift_kt < culift_trip; culift_kt += " + str(kStep_) + ")");
  threadTile();
}

// One tile of the loop over k whose copies the threads make: wait for its copies (or, where a
// tile of the loop may go by tensor copy, for those), one barrier makes the stage visible and frees
// the stage used last, which takes the copies of the tile stages - 1 on; then its steps of k.
void TileWriter::threadTile() {
  out_.say("culift_copy_wait<" + str(stages_ - 2) + ">();");
  std::optional<CodeWriter::Scope> byMaps;  // its other branch fences the threads' copies
  if (bulk() && !specialized_) {
    byMaps.emplace(out_.open("if (culift_kt <= culift_kmax)"));
    bulkWait();
    byMaps->otherwise();
  }
  scaleStage();
  if (wg_) out_.say("culift_fence_async_shared();  // the copies and stores, for the tensor cores' reads");
  byMaps.reset();
  out_.say(sync());
  {
    CodeWriter::Scope next = out_.open("");
    out_.say("const " + kType() + " culift_kc = culift_kt + " + str((stages_ - 1) * kStep_) + ";");
    out_.say("const int culift_sc = culift_st == 0 ? " + str(stages_ - 1) + " : culift_st - 1;");
    copyTile();
  }
  if (wholeForm()) {
    kSteps(true);
    if (rounds()) return;  // the stage counted by the round's loop (loopOverK)
  } else {
    CodeWriter::Scope whole = out_.open("if (culift_kt + " + str(kStep_) + " <= culift_trip)");
    kSteps(true);
    whole.otherwise();
    kSteps(false);
  }
  out_.say("culift_st = culift_st == " + str(stages_ - 1) + " ? 0 : culift_st + 1;");
}

// An entry's bulk tensor copies (TMA, sm_90a): the runtime passes a tensor map of each operand's
// matrix (PlanEntry::tensorMaps: the row operand's, then the column operand's) and a mask of those
// that hold. The translator found each index to step one element along its inner axis (k for the
// row operand, j for the column operand) and its map's stride along the other, so the tile of k
// culift_kc lies at the map's (column, row) culift_c0 + culift_kc, culift_r0 (the row operand's
// origin culift_o0 = its index at (i0, the loop's start)) and culift_c1, culift_r1 + culift_kc
// (culift_o1 at (the loop's start, j0)); a tile goes by tensor copy where both maps hold, the
// block and the step are whole and the tile's k stay in one row of the map (culift_by_tma, the
// same for every thread). Its stage's copies complete on the stage's mbarrier (culift_full),
// which every thread waits on at the phase it counts for the stage (culift_phases).
void TileWriter::bulkSetup() {
  const StagedOperand& rowOp = a_.operands[tc_->rowOperand];
  const StagedOperand& colOp = a_.operands[tc_->colOperand];
  auto stride = [&](const TensorMapOperand& m) {
    return m.strideParam == kNone ? str(m.stride) + "LL" : "(long long)" + name(m.strideParam);
  };
  out_.say("// Bulk tensor copies where the runtime's tensor maps hold: the stages' mbarriers, the tiles' origins.");
  out_.say("__shared__ __align__(8) unsigned long long culift_full[" + str(stages_) + "];");
  if (specialized_)
    out_.say("__shared__ __align__(8) unsigned long long culift_empty[" + str(stages_) +
             "];  // the workers done with the stage: the copying thread's to fill");
  out_.say("unsigned culift_phases = 0;  // bit s: the phase of stage s's next bulk copies");
  out_.say("long long culift_o0, culift_o1;");
  indexAt(rowOp, "culift_o0", "0", "0", "");
  indexAt(colOp, "culift_o1", "0", "0", "");
  out_.say("const long long culift_S0 = " + stride(e_.tensorMaps.at(0)) +
           ", culift_S1 = " + stride(e_.tensorMaps.at(1)) + ";");
  // The maps' coordinates are ints: the strides, the rows the tiles reach and the column tile's
  // columns within a row checked first.
  out_.say(
      "const bool culift_tma = (culift_maps & 3) == 3 && culift_S0 > 0 && culift_S1 > 0 && culift_S0 <= 2147483647LL && "
      "culift_S1 <= 2147483647LL && culift_o0 >= 0 && culift_o1 >= 0 && culift_o0 / culift_S0 + " +
      str(e_.tileRows) +
      " <= 2147483647LL && culift_o1 / culift_S1 + culift_trip <= 2147483647LL && culift_o1 % culift_S1 + " +
      str(e_.tileCols) + " <= culift_S1;");
  // The maps' coordinates of the tiles' origins, which the copying thread alone reads (from shared
  // memory: registers the 256-row tile lacks), written with the mbarriers before the block's barrier.
  out_.say("__shared__ int culift_at[4];  // the row operand's column and row, the column operand's");
  {
    CodeWriter::Scope first = out_.open("if (threadIdx.x == 0)");
    CodeWriter::Scope each = out_.open("for (int culift_s = 0; culift_s < " + str(stages_) + "; ++culift_s)");
    out_.say("culift_barrier_init(&culift_full[culift_s], 1);");
    if (specialized_) out_.say("culift_barrier_init(&culift_empty[culift_s], " + str(workers_) + ");");
    each.close();
    CodeWriter::Scope origins = out_.open("if (culift_tma)");
    out_.say("culift_at[0] = (int)(culift_o0 % culift_S0);");
    out_.say("culift_at[1] = (int)(culift_o0 / culift_S0);");
    out_.say("culift_at[2] = (int)(culift_o1 % culift_S1);");
    out_.say("culift_at[3] = (int)(culift_o1 / culift_S1);");
  }
  out_.say("__syncthreads();");
  // The last tile's k that goes by tensor copy (-1: none).
  out_.say(
      "const long long culift_kmax = culift_tma && culift_whole ? (culift_trip < culift_S0 - culift_o0 % culift_S0 ? "
      "culift_trip : culift_S0 - culift_o0 % culift_S0) - " +
      str(kStep_) + " : -1;");
}

// Thread 0's bulk tensor copies of the tile of k culift_kc into stage culift_sc.
void TileWriter::bulkCopies() {
  CodeWriter::Scope one = out_.open("if (threadIdx.x == 0)");
  bulkIssue();
}

// The bulk tensor copies of the tile of k culift_kc into stage culift_sc, on its mbarrier: the row
// operand's as one box of the step's k x the block's rows, the column operand's as boxes of 32
// columns.
void TileWriter::bulkIssue() {
  const std::string row = str(tc_->rowOperand), col = str(tc_->colOperand);
  const unsigned bytes = (e_.tileRows + e_.tileCols) * kStep_ * 4;
  out_.say("culift_expect_bytes(&culift_full[culift_sc], " + str(bytes) + ");");
  out_.say("culift_tensor_copy(&culift_s" + row +
           "[culift_sc][0], culift_map0, culift_at[0] + (int)culift_kc, culift_at[1], "
           "&culift_full[culift_sc]);");
  out_.say("#pragma unroll");
  out_.say("for (int culift_b = 0; culift_b < " + str(e_.tileCols / kWarpgroupBox) + "; ++culift_b)");
  out_.say("  culift_tensor_copy(&culift_s" + col + "[culift_sc][culift_b * " + str(kWarpgroupBox * kStep_) +
           "], culift_map1, culift_at[2] + culift_b * " + str(kWarpgroupBox) +
           ", culift_at[3] + (int)culift_kc, &culift_full[culift_sc]);");
}

// The copying warpgroup (an entry with one): its registers go to the workers; its first thread
// issues the bulk tensor copies of every tile the maps cover, each into its stage once the workers
// freed it (culift_empty, at the phase it counts for the stage: the first round of stages is free);
// then the warpgroup leaves. Measured on an H100 (bench/gpu/wgmma_variants.cu, 4096³): the
// hand-written form of this 0.362-0.369 ms, the copies from thread 0 within the workers' loop
// (a barrier a stage) 0.481-0.498.
void TileWriter::copier() {
  out_.say("// The copying warpgroup: one thread issues the bulk tensor copies, the others leave.");
  CodeWriter::Scope copying = out_.open("if (threadIdx.x >= " + str(workers_) + ")");
  out_.say("culift_registers_copier();");
  {
    CodeWriter::Scope one = out_.open("if (threadIdx.x == " + str(workers_) + ")");
    out_.say("unsigned culift_freed = 0;  // bit s: the phase of stage s's next freeing");
    out_.say("int culift_sc = 0;");
    out_.say("#pragma unroll 1");
    CodeWriter::Scope tiles = out_.open(
        "for (long long culift_kc = 0; culift_kc <= culift_kmax; culift_kc += " + str(kStep_) + ")");
    {
      CodeWriter::Scope reuse = out_.open("if (culift_kc >= " + str(stages_ * kStep_) + ")");
      out_.say("culift_barrier_wait(&culift_empty[culift_sc], (culift_freed >> culift_sc) & 1u);");
      out_.say("culift_freed ^= 1u << culift_sc;");
    }
    bulkIssue();
    out_.say("culift_sc = culift_sc == " + str(stages_ - 1) + " ? 0 : culift_sc + 1;");
    tiles.close();
    prefetchEpilogue();
  }
  out_.say("return;");
  copying.close();
  out_.say("culift_registers_worker();");
}

// The reads of the statements after the loop that every output of the block makes (statements
// before any branch, outside ?:, && and ||) of a parameter's array whose index steps one element
// along j: the copying thread, its copies issued (the workers then have a stage or four to
// multiply), brings their lines for the block's outputs into L2 (`prefetch.global.L2`, a line per
// 128 bytes of a row). Measured on an H100 at 4096³ (bench/gpu/wgmma_variants.cu), the GEMM's
// 256-row entry with a copying warpgroup: 0.552 ms without, 0.499 with its reads of C prefetched
// so (0.403 without reading C; prefetched a row at each of the last 32 tiles' copies, 0.583).
void TileWriter::prefetchEpilogue() {
  std::vector<std::string> reads;  // as printed, each once
  std::vector<Scalar> elements;
  const VarId j = axisVar(1);
  for (const Stmt* s : a_.epilogue) {
    if (s->kind != StmtKind::Return && s->kind != StmtKind::ExprStmt && s->kind != StmtKind::Decl) break;
    visitExprs(*s, [&](const Expr& e) {
      if (e.kind == ExprKind::Conditional) return false;
      if (e.kind == ExprKind::Binary && (e.binaryOp == BinaryOp::LogAnd || e.binaryOp == BinaryOp::LogOr)) return false;
      if (e.kind != ExprKind::Subscript || e.operands[0]->kind != ExprKind::VarRef ||
          e.operands[0]->var >= fn_.numParams || !unitStepOf(fn_, *e.operands[1], j))
        return true;
      std::string text = printer_.printExpression(e);
      if (std::find(reads.begin(), reads.end(), text) == reads.end())
        reads.push_back(std::move(text)), elements.push_back(e.type.scalar);
      return true;
    });
    if (s->kind == StmtKind::Return) break;
  }
  if (reads.empty()) return;
  out_.say("// The lines the statements after the loop read, for the block's outputs, into L2.");
  CodeWriter::Scope any = out_.open("if (culift_kmax >= 0)");
  const std::string i = name(axisVar(0)), jn = name(j);
  out_.say("#pragma unroll 1");
  CodeWriter::Scope rows = out_.open("for (int culift_r = 0; culift_r < " + str(e_.tileRows) + "; ++culift_r)");
  out_.say("const " + typeOf(axisVar(0)) + " " + i + " = culift_i0 + culift_r;");
  out_.say("if (" + i + " >= culift_ni) break;");
  for (std::size_t r = 0; r < reads.size(); ++r) {
    const unsigned line = 128 / static_cast<unsigned>(std::max<std::size_t>(byteSize(elements[r]), 1));
    out_.say("#pragma unroll");
    CodeWriter::Scope cols = out_.open("for (int culift_q = 0; culift_q < " + str(e_.tileCols) +
                                       "; culift_q += " + str(line) + ")");
    out_.say("const " + typeOf(j) + " " + jn + " = culift_j0 + culift_q;");
    out_.say("if (" + jn + " < culift_nj) culift_prefetch_l2(&" + reads[r] + ");");
  }
}

// The workers' loop of an entry with a copying warpgroup: the tiles the maps cover, each waited
// for on its stage's mbarrier, multiplied and freed, with no barrier of the block; then the tiles
// left (a block or a step partial, none where the maps do not hold), copied by the workers as in an
// entry without maps, after a barrier of theirs (the stages they copy into may still be read).
void TileWriter::specializedLoop() {
  steps();
  out_.say("int culift_st = 0;");
  out_.say("long long culift_kt = 0;");
  out_.say("// The tiles by tensor copy, stage by stage as the copying warpgroup fills them.");
  {
    out_.say("#pragma unroll 1");
    CodeWriter::Scope tiles = out_.open("for (; culift_kt <= culift_kmax; culift_kt += " + str(kStep_) + ")");
    bulkWait();
    kSteps(true);
    out_.say("culift_barrier_arrive(&culift_empty[culift_st]);");
    out_.say("culift_st = culift_st == " + str(stages_ - 1) + " ? 0 : culift_st + 1;");
  }
  out_.say("// The tiles left, by the workers' copies, " + str(stages_ - 1) + " in flight while one is used.");
  CodeWriter::Scope left = out_.open("if (culift_kt < culift_trip)");
  out_.say("culift_sync_workers();  // every worker done with the stages these copies reuse");
  for (unsigned t = 0; t + 1 < stages_; ++t) {
    CodeWriter::Scope first = out_.open("");
    out_.say("const long long culift_kc = culift_kt + " + str(t * kStep_) + ";");
    out_.say("const int culift_sc = (culift_st + " + str(t) + ") % " + str(stages_) + ";");
    copyTile();
  }
  out_.say("#pragma unroll 1");
  CodeWriter::Scope tiles = out_.open("for (; culift_kt < culift_trip; culift_kt += " + str(kStep_) + ")");
  threadTile();
}

// The statements after the loop, per output; a return stores the value.
void TileWriter::epilogue() {
  const bool value = returnsValue();
  PrintRewrites after = perOut_;
  std::string mirror;
  if (triangle_) {
    const std::string i = name(axisVar(0)), j = name(axisVar(1));
    mirror = " if (culift_bi != culift_bj && " + j + " < culift_ni && " + i + " < culift_nj) " + params_.outName +
             "[(long long)" + j + " * culift_nj + " + i + "] = culift_r;";
  }
  after.returns = [&](const std::string& v) {
    if (!value) return std::string("continue;");
    return "{ const " + returnType() + " culift_r = " + v + "; " + store("culift_r") + mirror + " continue; }";
  };
  // Each output's statements, behind the test of its row and column where `guarded`. Without
  // the tests the device compiler issues the outputs' loads (GEMM's C) ahead of their stores;
  // with them it kept each load next to its use and store, one round trip to memory an output
  // (the TF32 entry's SASS: LDG, then FMUL on it, then STG, 128 times a thread).
  auto outputs = [&](bool guarded) {
    PerOutput each = perOutput(guarded ? "The statements after the loop, per output."
                                       : "The statements after the loop, per output (every one in range).");
    if (guarded)
      out_.say("if (" + name(axisVar(0)) + " >= culift_ni || " + name(axisVar(1)) + " >= culift_nj) continue;");
    if (a_.earlyReturn) {
      CodeWriter::Scope returned = out_.open("if (culift_done & " + bit_ + ")");
      if (value)
        out_.say("const " + returnType() + " culift_r = culift_res[culift_m][culift_n]; " + store("culift_r") + mirror);
      out_.say("continue;");
    }
    for (const Stmt* s : a_.epilogue) printWith(after, *s);
  };
  if (wholeForm() && vectorStores()) {
    vectorEpilogue(after);
  } else if (wholeForm()) {  // every row and column of the block in range
    outputs(false);
  } else if (wg_) {  // a block of the warpgroups' tile: the whole block's outputs without the tests
    CodeWriter::Scope whole = out_.open("if (culift_whole)");
    outputs(false);
    whole.otherwise();
    outputs(true);
  } else {
    outputs(true);
  }
}

}  // namespace

// The whole form's outputs four consecutive columns at a time (culift_n in groups of 4): each
// output's statements as written, its value kept in culift_rv; then the four values stored, 16
// bytes at once where the output's rows are 16-byte groups (its columns a multiple of 4 and the
// array 16-byte aligned), else one by one. The same values to the same places: a warp's store of
// four columns at once writes a quarter of the sectors its four stores of one column did.
// Only whole forms ask: exact tiles, not the triangle's, of a 2-D or batched kernel.
bool TileWriter::vectorStores() const {
  const Scalar r = fn_.returnType.scalar;
  return tn_ % 4 == 0 && (r == Scalar::F32 || r == Scalar::I32 || r == Scalar::U32);
}

void TileWriter::vectorEpilogue(PrintRewrites after) {
  const Scalar r = fn_.returnType.scalar;
  const std::string vector = r == Scalar::F32 ? "float4" : r == Scalar::I32 ? "int4" : "uint4";
  const std::string i = name(axisVar(0)), j = name(axisVar(1));
  auto declare = [&](bool row, bool column) {
    if (row) out_.say("const " + typeOf(axisVar(0)) + " " + i + " = " + rowOf_ + ";");
    if (column) out_.say("const " + typeOf(axisVar(1)) + " " + j + " = " + colOf_ + ";");
  };
  after.returns = [&](const std::string& v) { return "{ culift_rv[culift_n - culift_g] = " + v + "; continue; }"; };
  bool row = false, column = false;  // the statements' use of i and j (declared only where used)
  for (const Stmt* st : a_.epilogue) {
    row = row || mentions(*st, axisVar(0), after);
    column = column || mentions(*st, axisVar(1), after);
  }
  out_.say(
      "// The statements after the loop, per output (every one in range), four consecutive columns at a time: "
      "their values stored at once where the output's rows are 16-byte groups.");
  out_.say("const bool culift_vo = (culift_nj & 3) == 0 && (reinterpret_cast<unsigned long long>(" + params_.outName +
           ") & 15) == 0;");
  out_.say("#pragma unroll");
  CodeWriter::Scope rows = out_.open("for (int culift_m = 0; culift_m < " + str(tm_) + "; ++culift_m)");
  out_.say("#pragma unroll");
  CodeWriter::Scope groups = out_.open("for (int culift_g = 0; culift_g < " + str(tn_) + "; culift_g += 4)");
  out_.say(returnType() + " culift_rv[4];");
  {
    out_.say("#pragma unroll");
    CodeWriter::Scope cols = out_.open("for (int culift_n = culift_g; culift_n < culift_g + 4; ++culift_n)");
    declare(row, column);
    if (a_.earlyReturn) {
      CodeWriter::Scope returned = out_.open("if (culift_done & " + bit_ + ")");
      out_.say("culift_rv[culift_n - culift_g] = culift_res[culift_m][culift_n];");
      out_.say("continue;");
    }
    for (const Stmt* s : a_.epilogue) printWith(after, *s);
  }
  {
    CodeWriter::Scope grouped = out_.open("if (culift_vo)");
    out_.say("const int culift_n = culift_g;");
    declare(true, true);
    out_.say("*reinterpret_cast<" + vector + "*>(&" + params_.outName + "[" + outIndex() + "]) = make_" + vector +
             "(culift_rv[0], culift_rv[1], culift_rv[2], culift_rv[3]);");
    grouped.otherwise();
    out_.say("#pragma unroll");
    CodeWriter::Scope single = out_.open("for (int culift_n = culift_g; culift_n < culift_g + 4; ++culift_n)");
    declare(true, true);
    out_.say(store("culift_rv[culift_n - culift_g]"));
  }
}

void emitTiledEntry(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  TileWriter(module, fn, entry, out, onWarpgroups(entry)).write();
}

}  // namespace culift::codegen
