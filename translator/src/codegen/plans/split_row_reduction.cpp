// Split-row reduction, 1-D, for a kernel allowed to reassociate its sums whose launches have too few
// rows to fill the device (16 rows of 4 million): the blocks of a row (1 to 32, the runtime's choice)
// share its slots — block b's warp w takes the slots b * 8 + w, + 8 B, ... — and write each slot's
// sum to a scratch buffer the runtime gives; the row's last block (an integer ticket per row, after a
// thread fence) adds the slots as a warp sum and runs the statements after the loop. The order is
// the reassociating row reduction's (culift/ast/reassociation.hpp: chunks of 4096 iterations, 256
// slots), so the two entries, and the CPU backend, give the same bits whichever a launch takes; no
// floating atomics.
#include "ast_match.hpp"
#include "culift/ast/reassociation.hpp"
#include "plan.hpp"
#include "warp_sums.hpp"

namespace culift::codegen {
namespace {

// ---- legality --------------------------------------------------------------------------------

// The value of an integer literal (through casts), or nothing.
std::optional<std::int64_t> literal(const Expr* e) {
  if (!e) return std::nullopt;
  const Expr& l = stripCasts(*e);
  if (l.kind != ExprKind::IntLiteral) return std::nullopt;
  return static_cast<std::int64_t>(l.intBits);
}

// How the loop's bound reads in a remark: its variable or literal, else "its trip count".
std::string boundName(const Function& f, const LoopAnalysis& a) {
  const Expr& hi = stripCasts(*a.upperBound);
  if (hi.kind == ExprKind::VarRef) return f.vars[hi.var].name;
  if (std::optional<std::int64_t> v = literal(&hi)) return std::to_string(*v);
  return "the loop's trip count";
}

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid1D) return plans::Decision::skip();
  const LoopAnalysis& a = *analysis.loop;
  std::string why;
  std::optional<std::vector<VarId>> sums = reassociableSums(f, a, why);
  if (!f.reassociate) {
    // The exact order's cost, where the loop would qualify: one dependent chain per output
    // (along rows: a loop reading columns is the column reduction's, which keeps the order).
    if (!sums) return plans::Decision::skip();
    for (const StagedOperand& op : a.operands)
      if (!op.unitStride) return plans::Decision::skip();
    if (!a.outputReads.empty() || a.operands.empty()) return plans::Decision::skip();
    return plans::Decision::no("exact order: each output adds its terms to " + f.vars[sums->front()].name +
                               " in one chain of " + boundName(f, a) +
                               " dependent additions; CULIFT_KERNEL_REASSOCIATE lifts it");
  }
  if (!sums) return plans::Decision::no("not reassociated: " + why);
  const std::optional<std::int64_t> lo = literal(a.lowerBound), hi = literal(a.upperBound);
  if (lo && hi && *hi - *lo + (a.inclusive ? 1 : 0) <= kReassociationChunk)
    return plans::Decision::no("the loop has at most " + std::to_string(kReassociationChunk) +
                               " iterations (one chunk): a warp per row adds it");
  // A block of 8 warps takes slots of one row; the warp-per-row entry where rows fill the device.
  return plans::Decision::yes({plans::makeEntry(f, "_split", LoopPlan::SplitRowReduction, 1, kReassociationSlots, 256,
                                                false),
                               plans::makeEntry(f, "_warp", LoopPlan::ReassociatingRowReduction, 8, 1, 256, false)},
                              std::move(*sums));
}

// ---- codegen ---------------------------------------------------------------------------------

class SplitWriter : WarpSumsWriter {
 public:
  SplitWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out)
      : WarpSumsWriter(module, fn, out, true), e_(e), warps_(e.threads / 32) {}

  void write() {
    CodeWriter::Scope entry =
        signature(e_,
                  {fn_.name + ": " + std::string(culift::name(e_.plan)) + ", B blocks of " + str(e_.threads) +
                       " threads per output (gridDim.x / rows, 1 .. 32): warp w of block b adds the slots b * " +
                       str(warps_) + " + w, + " + str(warps_) + " B, ...",
                   "of the row (the reassociating row reduction's order: chunks of 4096 iterations, warp sums, 256 "
                   "slots), the row's last block their warp sum: the warp-per-row entry's bits."},
                  "unsigned char* __restrict__ culift_scratch");
    extents(false);
    aliases();
    out_.say("const int culift_lane = threadIdx.x % 32, culift_warp = threadIdx.x / 32;");
    out_.say("const unsigned culift_parts = gridDim.x / (unsigned)(culift_ni - (int)culift_first);  // blocks per row");
    out_.say("const long long culift_row = culift_first + blockIdx.x / culift_parts;");
    out_.say("const unsigned culift_part = blockIdx.x % culift_parts;");
    out_.say("unsigned int* culift_tickets = (unsigned int*)culift_scratch;  // per row: its blocks done");
    out_.say("__shared__ unsigned int culift_ticket;");
    out_.say("// One row per block: `continue` leaves it.");
    {
      CodeWriter::Scope once = out_.open("do");
      out_.say("if (culift_row >= culift_ni) continue;");
      const VarId iv = axisVar(0);
      out_.say("const " + typeOf(iv) + " " + name(iv) + " = (" + typeOf(iv) + ")culift_row;");
      prologue();
      bounds();
      for (size_t s = 0; s < sums().size(); ++s)
        out_.say(typeOf(sums()[s]) + "* culift_slots" + str(s) + " = (" + typeOf(sums()[s]) + "*)(culift_scratch + " +
                 slotsOffset(s) + ") + culift_row * " + str(kReassociationSlots) + ";");
      startIterations(perOut_);
      {
        CodeWriter::Scope slots = slotLoop("(long long)culift_part * " + str(warps_) + " + culift_warp",
                                           str(warps_) + " * (long long)culift_parts");
        slotSum();
        for (size_t s = 0; s < sums().size(); ++s)
          out_.say("if (culift_lane == 0) culift_slots" + str(s) + "[culift_q] = culift_a" + str(s) + ";");
      }
      lastBlock();
      declare("culift_r", "lane l: slots l, l + 32, ... of");
      {
        out_.say("#pragma unroll 1");
        CodeWriter::Scope slots = out_.open("for (long long culift_q = culift_lane; culift_q < " +
                                            str(kReassociationSlots) + " && culift_q * " + str(kReassociationChunk) +
                                            " < culift_trip; culift_q += 32)");
        for (size_t s = 0; s < sums().size(); ++s)
          out_.say("culift_r" + str(s) + " = culift_r" + str(s) + " + __ldcg(&culift_slots" + str(s) + "[culift_q]);");
      }
      laneTree("culift_r");
      addToSums("culift_r");
      out_.say("// The statements after the loop, on the first lane; a return stores the value.");
      out_.say("if (culift_lane != 0) continue;");
      epilogueStoring(perOut_);
    }
    out_.say("while (false);");
  }

 private:
  // The statements before the loop run on every thread of the block (they are the same for the
  // row); a return before the loop ends the row for every block, the first block storing it.
  void prologue() {
    assignedParamCopies(perOut_);
    out_.say("// The statements before the loop, on every thread (they are the same for the row).");
    const bool value = returnsValue();
    perOut_.returns = [this, value](const std::string& v) {
      return value ? "{ if (culift_part == 0 && threadIdx.x == 0) " + store(v) + " continue; }"
                   : std::string("continue;");
    };
    for (const Stmt* s : a_.prologue) printWith(perOut_, *s);
  }

  // splitSlotsOffset(rows, s) of culift/ast/reassociation.hpp, for the launch's rows.
  std::string slotsOffset(size_t s) const {
    return "(culift_ni * 4LL + 255) / 256 * 256 + " + str(s) + "LL * culift_ni * " + str(kReassociationSlots * 8);
  }

  // Every block takes a ticket once its slots are written; the last of the row goes on, on its
  // first warp, and leaves the row's ticket at zero for the next launch.
  void lastBlock() {
    out_.say("__threadfence();  // the slots written, before the ticket");
    out_.say("__syncthreads();");
    out_.say("if (threadIdx.x == 0) culift_ticket = atomicAdd(&culift_tickets[culift_row], 1u);");
    out_.say("__syncthreads();");
    out_.say("if (culift_ticket + 1 != culift_parts || culift_warp != 0) continue;  // the row's last block");
    out_.say("__threadfence();");
    out_.say("if (culift_lane == 0) culift_tickets[culift_row] = 0u;  // for the next launch");
  }

  const PlanEntry& e_;
  const unsigned warps_;
  PrintRewrites perOut_;
};

void emit(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  SplitWriter(module, fn, entry, out).write();
}

}  // namespace

const plans::Unit plans::kSplitRowReduction{LoopPlan::SplitRowReduction, decide, emit};

}  // namespace culift::codegen
