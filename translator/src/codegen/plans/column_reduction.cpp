// Column reduction (exact order), 1-D and 2-D: a loop over a middle axis whose outputs lie
// side by side in the last one — out(i, j) = sum over k of x[(i * d1 + k) * d2 + j], RMS norm's
// x[(b * F + f) * S + s] over f, x[k * rows + i] in 1-D. One thread per output, consecutive
// threads on consecutive outputs (row-major over (i, j)), so every load of a warp is coalesced, as
// it is per thread already; what the per-thread entry lacks is loads in flight: its loop adds each
// element before it asks for the next. Here every output runs its loop in source order, but the
// loads of `unroll` iterations are issued ahead of the statements that use them (each array the
// loop reads unconditionally, at the same element the loop would read it), so 8 to 16 loads per
// thread are in flight. No array the loop reads is written by the kernel (the shared analysis
// checks), so a load moved ahead reads what the loop would have read: the per-thread entry's bits.
//
// Its 3-D form (HoistedColumnReduction, the same emitter): f(b, m, s) whose statements before the
// loop and loop do not use the middle index m (RMS norm in one function: the column's root mean
// square over f, then x[(b * F + f) * S + s] divided by it). Per thread, the loop runs once for
// column (b, s), and the statements after it once for every m in order, on the values the loop
// left: they write nothing the next m reads (checked), so each output gets the operations, on the
// values, that its own call computes. The column is read from memory once: the elements the
// statements after the loop read again come from a per-thread stash the loop fills in shared
// memory (planStash).
#include <algorithm>
#include <map>
#include <set>

#include "../reads_first.hpp"
#include "ast_match.hpp"
#include "entry_writer.hpp"
#include "plan.hpp"

namespace culift::codegen {
namespace {

// The reads the entry loads ahead: the staged operands, the arrays read at k alone and (2-D) the
// reads of one element per output.
std::vector<const StagedOperand*> hoistedReads(const LoopAnalysis& a) {
  std::vector<const StagedOperand*> out;
  for (const std::vector<StagedOperand>* group : {&a.operands, &a.outputReads, &a.vectors})
    for (const StagedOperand& o : *group) out.push_back(&o);
  return out;
}

// Iterations whose loads are issued together: 16 (8 of doubles) where the loop reads one or two
// arrays, fewer where it reads more (about 32 loads per thread in flight at most), never under 4.
unsigned unrollFor(const LoopAnalysis& a) {
  const std::vector<const StagedOperand*> reads = hoistedReads(a);
  unsigned widest = 4;
  for (const StagedOperand* o : reads) widest = std::max(widest, byteSize(o->element));
  const unsigned perArray = 64 / widest;
  return std::max<unsigned>(4, perArray * 2 / static_cast<unsigned>(std::max<size_t>(2, reads.size())));
}

// ---- legality --------------------------------------------------------------------------------

// Whether `index` ends in the index of consecutive threads: a term `fast` or a local set once to
// `fast % e` (the last coordinate of a flattened index: s of b = i / S, s = i % S) among the terms
// it adds. Where the analysis found no literal stride, that is what makes neighbouring outputs
// read neighbouring elements.
bool endsInFastIndex(const Expr& index, VarId fast, const LoopAnalysis& a, unsigned depth = 0) {
  const Expr& e = stripCasts(index);
  if (depth > 64) return false;
  if (e.kind == ExprKind::Binary && (e.binaryOp == BinaryOp::Add || e.binaryOp == BinaryOp::Sub))
    return endsInFastIndex(*e.operands[0], fast, a, depth + 1) ||
           (e.binaryOp == BinaryOp::Add && endsInFastIndex(*e.operands[1], fast, a, depth + 1));
  if (e.kind != ExprKind::VarRef) return false;
  if (e.var == fast) return true;
  if (std::find(a.inlined.begin(), a.inlined.end(), e.var) == a.inlined.end()) return false;
  for (const Stmt* s : a.prologue)
    if (s->kind == StmtKind::Decl && s->var == e.var && s->expr) {
      const Expr& init = stripCasts(*s->expr);
      return init.kind == ExprKind::Binary && init.binaryOp == BinaryOp::Rem &&
             stripCasts(*init.operands[0]).kind == ExprKind::VarRef && stripCasts(*init.operands[0]).var == fast;
    }
  return false;
}

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid1D && f.mode != IndexMode::Grid2D) return plans::Decision::skip();
  const LoopAnalysis& a = *analysis.loop;
  const bool twoD = f.mode == IndexMode::Grid2D;
  // A 2-D loop without a read of one element per output is a contraction's; a 1-D loop reading a
  // row (consecutive k side by side) a row reduction's.
  if (twoD && a.outputReads.empty()) return plans::Decision::skip();
  const VarId fastVar = static_cast<VarId>(f.indexParams[twoD ? 1 : 0]);
  const std::string fast = f.vars[fastVar].name;
  const std::string k = f.vars[a.counter].name;
  for (const std::vector<StagedOperand>* group : {&a.operands, &a.outputReads})
    for (const StagedOperand& o : *group) {
      const std::string array = f.vars[o.array].name;
      if (o.unitStride) {
        if (!twoD) return plans::Decision::skip();
        return plans::Decision::no(array + " is read at consecutive " + k +
                                   ": a row per output (one thread per output strides the rows)");
      }
      // Along the axis of consecutive threads: the same element (0) or the next (1), or, where
      // the stride is no literal (i % S), an index ending in that axis's index.
      const std::optional<std::int64_t> stride = twoD && o.axis == 0 ? 0 : o.axisStride;
      if (stride && *stride != 0 && *stride != 1)
        return plans::Decision::no("consecutive " + fast + " read elements of " + array + " " +
                                   std::to_string(*stride) + " apart (a column reduction reads neighbouring ones)");
      if (!stride && !endsInFastIndex(*o.index, fastVar, a))
        return plans::Decision::no("the index of " + array + " does not end in + " + fast + " or + " + fast +
                                   " % n (a column reduction reads neighbouring elements for neighbouring " + fast +
                                   ")");
    }
  // A block of 256 outputs, or of 64 where outputs are too few to give every multiprocessor a block.
  return plans::Decision::yes({plans::makeEntry(f, "_cols256", LoopPlan::ColumnReduction, 1, 256, 256, false),
                               plans::makeEntry(f, "_cols64", LoopPlan::ColumnReduction, 1, 64, 64, false)});
}

// Why the statements after the loop may not run once per middle index on what the loop left
// ("" when they may): they write an array or pass a writable one to a call, update an array
// atomically, assign a variable declared before them (a parameter, a local of the statements
// before the loop) or bind a reference.
std::string rerunReason(const Function& f, const LoopAnalysis& a) {
  const std::string where = "the statements after the loop";
  if (std::string writes = arrayWriteReason(a.epilogue, where); !writes.empty()) return writes;
  std::set<VarId> own;
  for (const Stmt* s : a.epilogue)
    forEachStmt(*s, [&](const Stmt& d) {
      if (d.kind == StmtKind::Decl && d.var != kNone && !f.vars[d.var].isReference()) own.insert(d.var);
    });
  std::string reason;
  for (const Stmt* s : a.epilogue)
    forEachExpr(*s, [&](const Expr& e) {
      if (!reason.empty()) return;
      if (e.kind == ExprKind::AtomicRmw) reason = where + " update an array";
      const Expr* t = assignmentTarget(e);
      if (!t) return;
      // The variable assigned (a struct's through its members).
      const Expr* root = &stripCasts(*t);
      while (root->kind != ExprKind::VarRef && !root->operands.empty()) root = root->operands[0].get();
      if (root->kind != ExprKind::VarRef) reason = where + " write a variable declared before them";
      else if (!own.count(root->var)) reason = where + " assign " + f.vars[root->var].name;
    });
  for (const Stmt* s : a.epilogue)
    forEachStmt(*s, [&](const Stmt& d) {
      if (reason.empty() && d.kind == StmtKind::Decl && d.var != kNone && f.vars[d.var].isReference())
        reason = where + " bind a reference";
    });
  return reason;
}

// The 3-D form: f(b, m, s) whose loop result is the same for every m of a column (b, s).
plans::Decision decideAcross(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid3D || f.indexParams.size() != 3 || f.returnType.isVoid()) return plans::Decision::skip();
  const LoopAnalysis& a = *analysis.loop;
  const VarId mid = static_cast<VarId>(f.indexParams[1]), fastVar = static_cast<VarId>(f.indexParams[2]);
  const std::string m = f.vars[mid].name, fast = f.vars[fastVar].name;
  if (!a.outputReads.empty())
    return plans::Decision::no(f.vars[a.outputReads[0].array].name + " is read in the loop at an index with " + m +
                               " (a column shared by every " + m + " reads none)");
  for (const StagedOperand& o : a.operands)
    if (o.axis == 0)
      return plans::Decision::no(f.vars[o.array].name + " is read in the loop at an index with " + m +
                                 " (a column shared by every " + m + " reads none)");
  if (a.operands.empty()) return plans::Decision::skip();
  const PrintRewrites none;
  for (const Stmt* s : a.prologue)
    if (mentions(*s, mid, none)) return plans::Decision::no("the statements before the loop use " + m);
  if (mentions(*a.loop, mid, none)) return plans::Decision::no("the loop uses " + m);  // its bounds included
  if (a.earlyReturn) return plans::Decision::no("the statements before the loop may return");
  if (std::string why = rerunReason(f, a); !why.empty()) return plans::Decision::no(why);
  for (const StagedOperand& o : a.operands) {
    if (o.axisStride && *o.axisStride != 0 && *o.axisStride != 1)
      return plans::Decision::no("consecutive " + fast + " read elements of " + f.vars[o.array].name + " " +
                                 std::to_string(*o.axisStride) + " apart (a column reduction reads neighbouring ones)");
    if (!o.axisStride && !endsInFastIndex(*o.index, fastVar, a))
      return plans::Decision::no("the index of " + f.vars[o.array].name + " does not end in + " + fast + " or + " +
                                 fast + " % n (a column reduction reads neighbouring elements for neighbouring " +
                                 fast + ")");
  }
  return plans::Decision::yes({plans::makeEntry(f, "_across128", LoopPlan::HoistedColumnReduction, 1, 128, 128, false),
                               plans::makeEntry(f, "_across64", LoopPlan::HoistedColumnReduction, 1, 64, 64, false)});
}

// ---- codegen ---------------------------------------------------------------------------------

class ColumnsWriter : EntryWriter {
 public:
  ColumnsWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out)
      : EntryWriter(module, fn, out),
        module_(module),
        e_(e),
        reads_(hoistedReads(a_)),
        unroll_(unrollFor(a_)),
        twoD_(fn.mode == IndexMode::Grid2D),
        across_(e.plan == LoopPlan::HoistedColumnReduction) {
    if (across_ && a_.assignedParams.empty()) epilogueReads_ = readsIssuedFirstIn(fn, a_.epilogue);
    if (epilogueReads_) planStash();
  }

  void write() {
    const std::string loads = "; the loads of " + str(unroll_) +
                              " iterations issued ahead of the statements that use them";
    CodeWriter::Scope entry =
        across_
            ? header(e_, str(e_.tileCols) + " columns (" + name(a_.batch) + ", " + name(axisVar(1)) +
                             ") per block, one per thread, consecutive threads on consecutive " + name(axisVar(1)) +
                             "; the loop once per column" + loads + ", the statements after it for every " +
                             name(axisVar(0)) + " in order")
            : header(e_, str(e_.tileCols) + " outputs per block, one per thread, consecutive threads on consecutive " +
                             name(axisVar(twoD_ ? 1 : 0)) + loads);
    extents(twoD_ || across_);
    aliases();
    if (!across_) bounds();
    out_.say("const long long culift_outputs = (long long)" + std::string(across_ ? "culift_nb * culift_nj;  // columns"
                                                                          : twoD_ ? "culift_ni * culift_nj;"
                                                                                  : "culift_ni;"));
    for (const Stash& st : stash_)
      out_.say("__shared__ " + std::string(spelling(reads_[st.operand]->element)) + " " + st.name + "[" +
               str(stashCapacity_ * e_.threads) + "];  // " + name(reads_[st.operand]->array) +
               " of the loop's first " + str(stashCapacity_) +
               " iterations, a column per thread, for the statements after it");
    out_.say("#pragma unroll 1");
    CodeWriter::Scope outputs = out_.open(
        "for (long long culift_o = culift_first" + std::string(twoD_ || across_ ? " * culift_nj" : "") +
        " + (long long)blockIdx.x * " + str(e_.tileCols) +
        " + threadIdx.x; culift_o < culift_outputs; culift_o += (long long)gridDim.x * " + str(e_.tileCols) + ")");
    indices();
    if (across_) bounds();
    perOutput();
    loop();
    if (!across_) {
      out_.say("// The statements after the loop; a return stores the value.");
      epilogueStoring(perOut_);
      return;
    }
    // Every middle index of the column, in order, on what the loop left (the statements write
    // nothing a later one reads); a return stores its value and goes on to the next.
    const VarId mid = axisVar(0);
    if (epilogueReads_) {
      const std::vector<const Expr*>* reads = &*epilogueReads_;
      if (!stash_.empty())
        out_.say("const long long culift_stashed = culift_trip < " + str(stashCapacity_) +
                 " ? culift_trip : " + str(stashCapacity_) + ";  // iterations the stash holds");
      // Declarations and one return (RMS norm's division): the reads of kReadsFirstItems middle
      // indices first, then their statements, as the per-thread wrapper's reads-first step.
      out_.say("#pragma unroll 1");
      CodeWriter::Scope every = out_.open("for (int culift_m0 = 0; culift_m0 < culift_ni; culift_m0 += " +
                                              str(kReadsFirstItems) + ")",
                                          "the statements after the loop, for every " + name(mid));
      ReadsFirstStep step;
      step.reads = reads;
      step.stmts = a_.epilogue;
      step.stepped = mid;
      // A read the loop made at iteration m - lo comes from the stash where it holds that one.
      step.readAt = [&](const Expr* read, const IndexNames& at, const std::string& memory) {
        const auto st = stashOf_.find(read);
        if (st == stashOf_.end()) return memory;
        const std::string t = "((long long)" + at[1] + " - (long long)culift_lo)";
        return "(unsigned long long)" + t + " < (unsigned long long)culift_stashed ? " + stash_[st->second].name + "[" +
               t + " * " + str(e_.threads) + " + threadIdx.x] : " + memory;
      };
      step.loopVar = {name(a_.batch), name(mid), name(axisVar(1))};
      step.inner = 1;
      step.first = "culift_m0";
      step.innerExtent = "culift_ni";
      step.stride = "1";
      step.argumentsAt = [&](const IndexNames& at) {
        std::vector<std::string> args;
        for (unsigned p = 0; p < fn_.numParams; ++p) args.push_back(p == mid ? at[1] : name(static_cast<VarId>(p)));
        return args;
      };
      // Outputs the entry never reads back: stored evict-first (2 % faster for RMS norm on the H200).
      step.store = [&](const IndexNames& at, const std::string& value) {
        const std::string type(spelling(fn_.returnType.scalar));
        return "culift_store_streaming<" + type + ">(&" + params_.outName + "[((long long)" + at[0] +
               " * culift_ni + " + at[1] + ") * culift_nj + " + at[2] + "], " + value + ");";
      };
      emitReadsFirstStep(module_, fn_, step, out_);
      return;
    }
    out_.say("#pragma unroll 4");
    CodeWriter::Scope every = out_.open("for (int culift_m = 0; culift_m < culift_ni; ++culift_m)",
                                        "the statements after the loop, for every " + name(mid));
    bool used = false;
    for (const Stmt* s : a_.epilogue) used = used || mentions(*s, mid, perOut_);
    if (used) out_.say("const " + typeOf(mid) + " " + name(mid) + " = (" + typeOf(mid) + ")culift_m;");
    epilogueStoring(perOut_);
  }

 private:
  // i (and j) of output culift_o: fewer than 2^31 outputs, so 32-bit unsigned division; for the
  // 3-D form the column's batch and last index.
  void indices() {
    if (across_) {
      const VarId bv = a_.batch, sv = axisVar(1);
      out_.say("const unsigned culift_o32 = (unsigned)culift_o;");
      out_.say("const " + typeOf(bv) + " " + name(bv) + " = (" + typeOf(bv) + ")(culift_o32 / (unsigned)culift_nj);");
      out_.say("const " + typeOf(sv) + " " + name(sv) + " = (" + typeOf(sv) + ")(culift_o32 % (unsigned)culift_nj);");
      return;
    }
    const VarId iv = axisVar(0);
    if (!twoD_) {
      out_.say("const " + typeOf(iv) + " " + name(iv) + " = (" + typeOf(iv) + ")culift_o;");
      return;
    }
    const VarId jv = axisVar(1);
    out_.say("const unsigned culift_o32 = (unsigned)culift_o;");
    out_.say("const " + typeOf(iv) + " " + name(iv) + " = (" + typeOf(iv) + ")(culift_o32 / (unsigned)culift_nj);");
    out_.say("const " + typeOf(jv) + " " + name(jv) + " = (" + typeOf(jv) + ")(culift_o32 % (unsigned)culift_nj);");
  }

  // Copies of the scalar parameters the body assigns, and the statements before the loop, once for
  // this output (a return stores its value and goes on to the next output).
  void perOutput() {
    assignedParamCopies(perOut_);
    const bool value = returnsValue();
    perOut_.returns = [this, value](const std::string& v) {
      return value ? "{ " + store(v) + " continue; }" : std::string("continue;");
    };
    out_.say("// The statements before the loop.");
    for (const Stmt* s : a_.prologue) printWith(perOut_, *s);
  }

  // The loop in steps of unroll_ iterations: their loads first, then the body once per iteration
  // in order on the loaded values; the iterations left over one by one, as written.
  void loop() {
    step_ = perOut_;
    step_.returns = nullptr;
    for (size_t p = 0; p < reads_.size(); ++p)
      for (const Expr* read : reads_[p]->reads) step_.exprs[read] = "culift_v" + str(p) + "[culift_u]";
    const bool usesK = mentions(*a_.loop->body, a_.counter, step_);
    out_.say("long long culift_t = 0;  // iterations done");
    out_.say("#pragma unroll 1");
    {
      CodeWriter::Scope steps = out_.open("for (; culift_t + " + str(unroll_) +
                                          " <= culift_trip; culift_t += " + str(unroll_) + ")");
      for (size_t p = 0; p < reads_.size(); ++p)
        out_.say(std::string(spelling(reads_[p]->element)) + " culift_v" + str(p) + "[" + str(unroll_) + "];  // " +
                 name(reads_[p]->array) + "[" + printer_.printExpression(*reads_[p]->index) + "]");
      {
        out_.say("#pragma unroll");
        CodeWriter::Scope loads = out_.open("for (int culift_u = 0; culift_u < " + str(unroll_) + "; ++culift_u)",
                                            "every load of the step in flight at once");
        out_.say(counterAt("culift_t + culift_u"));
        for (size_t p = 0; p < reads_.size(); ++p)
          out_.say("culift_v" + str(p) + "[culift_u] = " + name(reads_[p]->array) + "[" +
                   printer_.printExpression(*reads_[p]->index) + "];");
        for (const Stash& st : stash_)
          out_.say("if (culift_t + culift_u < " + str(stashCapacity_) + ") " + st.name + "[(culift_t + culift_u) * " +
                   str(e_.threads) + " + threadIdx.x] = culift_v" + str(st.operand) + "[culift_u];");
      }
      out_.say("#pragma unroll");
      CodeWriter::Scope body = out_.open("for (int culift_u = 0; culift_u < " + str(unroll_) + "; ++culift_u)",
                                         "the body, iteration by iteration");
      if (usesK) out_.say(counterAt("culift_t + culift_u"));
      printBody(step_, *a_.loop->body);
    }
    rest_ = perOut_;
    rest_.returns = nullptr;
    out_.say("#pragma unroll 1");
    CodeWriter::Scope rest = out_.open("for (; culift_t < culift_trip; ++culift_t)");
    if (!stash_.empty() || mentions(*a_.loop->body, a_.counter, rest_)) out_.say(counterAt("culift_t"));
    // A stashed read loaded once, for the stash and for the body.
    for (const Stash& st : stash_) {
      const StagedOperand& o = *reads_[st.operand];
      const std::string value = "culift_w" + str(st.operand);
      out_.say("const " + std::string(spelling(o.element)) + " " + value + " = " + name(o.array) + "[" +
               printer_.printExpression(*o.index) + "];");
      out_.say("if (culift_t < " + str(stashCapacity_) + ") " + st.name + "[culift_t * " + str(e_.threads) +
               " + threadIdx.x] = " + value + ";");
      for (const Expr* read : o.reads) rest_.exprs[read] = value;
    }
    printBody(rest_, *a_.loop->body);
  }

  // The reads of the statements after the loop that the loop made too, at the middle index in
  // place of the counter (RMS norm's x[(b * F + f) * S + s] beside the loop's x[(b * F + g) * S + s]):
  // each thread keeps its column's elements of the first iterations in shared memory, so that the
  // statements after the loop read them there rather than from memory a second time: a column of
  // stashCapacity_ elements per thread (no array the loop reads is written by the kernel, so the
  // stash holds what memory does).
  void planStash() {
    unsigned bytes = 0;
    for (const Expr* read : *epilogueReads_)
      for (size_t p = 0; p < reads_.size(); ++p) {
        const StagedOperand& o = *reads_[p];
        if (o.array != read->operands[0]->var ||
            !SwapCompare{a_.counter, axisVar(0), {}}.expr(*o.index, *read->operands[1]))
          continue;
        // One stash per loop read, however many reads after the loop it serves; two at most.
        size_t k = 0;
        while (k < stash_.size() && stash_[k].operand != p) ++k;
        if (k == stash_.size()) {
          if (stash_.size() == 2) break;
          stash_.push_back({p, "culift_stash" + str(k)});
          bytes += byteSize(o.element);
        }
        stashOf_[read] = k;
        break;
      }
    if (stash_.empty()) return;
    stashCapacity_ = kStashBytesPerThread / bytes;
    if (stashCapacity_ < 8) {
      stash_.clear();
      stashOf_.clear();
    }
  }

  struct Stash {
    size_t operand;  // the loop's read (reads_) whose elements it keeps
    std::string name;
  };
  // 64 floats per thread: 32 KiB per block of 128, 16 KiB of 64 (7 and 14 blocks per
  // multiprocessor of 228 KiB: 896 threads either way).
  static constexpr unsigned kStashBytesPerThread = 256;

  const Module& module_;
  const PlanEntry& e_;
  const std::vector<const StagedOperand*> reads_;
  const unsigned unroll_;
  const bool twoD_;
  const bool across_;                                      // HoistedColumnReduction
  std::optional<std::vector<const Expr*>> epilogueReads_;  // the reads-first step's, where it applies
  std::vector<Stash> stash_;
  std::map<const Expr*, size_t> stashOf_;  // the reads after the loop a stash serves
  unsigned stashCapacity_ = 0;             // iterations each column keeps
  PrintRewrites perOut_, step_, rest_;
};

void emit(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  ColumnsWriter(module, fn, entry, out).write();
}

}  // namespace

const plans::Unit plans::kColumnReduction{LoopPlan::ColumnReduction, decide, emit};
const plans::Unit plans::kHoistedColumnReduction{LoopPlan::HoistedColumnReduction, decideAcross, emit};

}  // namespace culift::codegen
