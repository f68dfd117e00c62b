// Row reduction (exact order), 1-D: the block's first warp computes its rows, one per lane, in
// source order, while the other warps stage the rows' operands through shared memory in 256- or
// 512-byte slices, 16 bytes at a time (several stages in flight), so that the loads are coalesced
// where one thread per row would stride a whole row between lanes. Arrays read at k alone (the x
// of A x) are staged once per slice for the block.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "entry_writer.hpp"
#include "plan.hpp"

namespace culift::codegen {
namespace {

// Bytes of one row a row reduction stages per step with `rows` rows per block (fewer rows, longer
// slices: as many bytes per barrier).
unsigned rowSliceBytes(unsigned rows) { return rows >= 32 ? 256 : 512; }

// The arrays read at k alone that a row reduction stages beside its rows (those of the rows'
// element width; others are read as written).
std::vector<const StagedOperand*> rowReductionVectors(const LoopAnalysis& a) {
  std::vector<const StagedOperand*> out;
  for (const StagedOperand& v : a.vectors)
    if (!a.operands.empty() && byteSize(v.element) == byteSize(a.operands[0].element)) out.push_back(&v);
  return out;
}

// How a row reduction stages `operands` arrays of rows and `vectors` arrays read at k alone, with
// `rows` rows per block: its stages (slices of every staged array) and the dynamic shared memory
// they take (0: static, within 48 KiB). Static shared memory where three stages or more fit;
// dynamic, at most kPlanSharedBudget, where only that fits three; nothing where not even that
// does.
struct RowStaging {
  unsigned stages = 0;
  unsigned dynamicBytes = 0;
};
std::optional<RowStaging> rowStaging(size_t operands, size_t vectors, unsigned rows) {
  const size_t perStage = (operands * rows + vectors) * rowSliceBytes(rows);  // one stage of every staged array
  if (!perStage) return RowStaging{6, 0};
  if (const size_t fit = kStaticSharedBytes / perStage; fit >= 3)
    return RowStaging{static_cast<unsigned>(std::min<size_t>(6, fit)), 0};
  const size_t fit = kPlanSharedBudget / perStage;
  if (fit < 3) return std::nullopt;
  const unsigned stages = static_cast<unsigned>(std::min<size_t>(4, fit));
  return RowStaging{stages, static_cast<unsigned>(stages * perStage)};
}

// ---- legality --------------------------------------------------------------------------------

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  if (f.mode != IndexMode::Grid1D) return plans::Decision::skip();
  const LoopAnalysis& a = *analysis.loop;
  // Slices of rows are copied 16 bytes at a time: every staged array must step one element per k,
  // and all of them the same number of bytes.
  for (const StagedOperand& o : a.operands) {
    const std::string array = f.vars[o.array].name;
    if (!o.unitStride)
      return plans::Decision::no(o.kContiguous ? array +
                                                     " is not read at consecutive k (the index is not k plus terms "
                                                     "without k)"
                                               : "consecutive " + f.vars[f.indexParams[0]].name +
                                                     " read neighbouring elements of " + array +
                                                     " already (one thread per output is coalesced)");
    if (byteSize(o.element) != byteSize(a.operands[0].element))
      return plans::Decision::no("the staged arrays " + f.vars[a.operands[0].array].name + " and " + array +
                                 " have elements of different sizes");
  }
  // 32 rows per block, or 8 where rows are too few to give every multiprocessor a block.
  std::vector<PlanEntry> entries;
  for (unsigned rows : {32u, 8u}) {
    const std::optional<RowStaging> staging = rowStaging(a.operands.size(), rowReductionVectors(a).size(), rows);
    if (!staging) continue;  // the 8-row entry's slices are the smaller
    entries.push_back(plans::makeEntry(f, "_rows" + str(rows), LoopPlan::RowReduction, rows, 1, 256, false));
    entries.back().sharedBytes = staging->dynamicBytes;
  }
  if (entries.empty())
    return plans::Decision::no(std::to_string(a.operands.size()) + " arrays would be staged (three stages of " +
                               "their slices take more than " + std::to_string(kPlanSharedBudget / 1024) +
                               " KiB of shared memory)");
  return plans::Decision::yes(std::move(entries));
}

// ---- codegen ---------------------------------------------------------------------------------

class RowsWriter : EntryWriter {
 public:
  RowsWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out)
      : EntryWriter(module, fn, out),
        e_(e),
        vectors_(rowReductionVectors(a_)),
        width_(byteSize(a_.operands.at(0).element)),  // the planner gives all staged arrays one width
        stages_(e.tileRows ? rowStaging(a_.operands.size(), vectors_.size(), e.tileRows).value().stages : 0),
        sliceBytes_(rowSliceBytes(e.tileRows)),
        slice_(sliceBytes_ / width_),
        chunk_(16 / width_),
        chunks_(slice_ / chunk_),
        R_(str(e.tileRows)),
        i_(name(axisVar(0))) {}

  void write();

 private:
  void stagedSlices();
  void copySlice(const std::string& sliceIndex, const std::string& stage);
  void perOutputState();
  void loop();
  void chunkLoop(bool full);
  void epilogue();

  const PlanEntry& e_;
  const std::vector<const StagedOperand*> vectors_;
  const unsigned width_, stages_, sliceBytes_;
  const unsigned slice_;   // k per slice
  const unsigned chunk_;   // elements per 16-byte chunk
  const unsigned chunks_;  // chunks per slice
  const std::string R_, i_;
  // Each staged array in its own element type: arrays of one width may differ in type (short
  // and unsigned short).
  std::string element(const StagedOperand& o) const { return std::string(spelling(o.element)); }
  std::string vec(const StagedOperand& o) const { return "culift_vec<" + element(o) + ", " + str(chunk_) + ">"; }
  PrintRewrites perOut_, step_;
  bool usesK_ = false;
};

void RowsWriter::write() {
  CodeWriter::Scope entry =
      header(e_, R_ +
                     " outputs per block, one per thread of its first warp, the other warps copying (the first never "
                     "waits on a copy of its own); each row staged in " +
                     str(sliceBytes_) + "-byte slices, " + str(stages_ - 1) + " in flight");
  extents(false);
  aliases();
  stagedSlices();
  bounds();
  out_.say("const long long culift_slices = (culift_trip + " + str(slice_ - 1) + ") / " + str(slice_) + ";");
  out_.say("const int culift_tid = threadIdx.x;");
  out_.say("#pragma unroll 1");
  CodeWriter::Scope rows = out_.open("for (int culift_r0 = (int)culift_first + blockIdx.x * " + R_ +
                                     "; culift_r0 < culift_ni; culift_r0 += gridDim.x * " + R_ + ")");
  out_.say("const " + typeOf(axisVar(0)) + " " + i_ + " = culift_r0 + culift_tid;");
  perOutputState();
  loop();
  epilogue();
}

void RowsWriter::stagedSlices() {
  std::vector<SharedArray> arrays;
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    arrays.push_back({"culift_s" + str(p), element(o), "[" + str(stages_) + "][" + R_ + "][" + str(slice_) + "]",
                      name(o.array) + "[" + printer_.printExpression(*o.index) + "]",
                      std::size_t{stages_} * e_.tileRows * sliceBytes_});
  }
  for (size_t p = 0; p < vectors_.size(); ++p)
    arrays.push_back({"culift_b" + str(p), element(*vectors_[p]), "[" + str(stages_) + "][" + str(slice_) + "]",
                      name(vectors_[p]->array) + "[" + printer_.printExpression(*vectors_[p]->index) + "]",
                      std::size_t{stages_} * sliceBytes_});
  declareShared(e_, arrays);
  out_.say("// Row r's 16-byte chunk c of a slice sits at chunk c ^ (r % 8): a thread reading its own row and");
  out_.say("// the copies of one row both meet every bank once.");
}

// Copies slice `sliceIndex` of the block's rows into a stage, one 16-byte chunk per thread and
// step (the first warp copies nothing: it sums).
void RowsWriter::copySlice(const std::string& sliceIndex, const std::string& stage) {
  {
    CodeWriter::Scope any = out_.open("if (" + sliceIndex + " < culift_slices)");
    out_.say("const int culift_sc = " + stage + ";");
    out_.say("#pragma unroll 2");
    {
      CodeWriter::Scope chunks = out_.open("for (int culift_q = culift_tid - 32; culift_q >= 0 && culift_q < " +
                                               str(e_.tileRows * chunks_) + "; culift_q += " + str(e_.threads - 32) +
                                               ")",
                                           "the first warp sums");
      out_.say("const int culift_r = culift_q / " + str(chunks_) + ", culift_c = culift_q % " + str(chunks_) + ";");
      out_.say("const " + typeOf(axisVar(0)) + " " + i_ + " = culift_r0 + culift_r;");
      out_.say("const long long culift_kq = " + sliceIndex + " * " + str(slice_) + " + culift_c * " + str(chunk_) +
               ";");
      CodeWriter::Scope inRange = out_.open("if (" + i_ + " < culift_ni && culift_kq < culift_trip)");
      out_.say("const int culift_valid = (int)min((long long)" + str(chunk_) + ", culift_trip - culift_kq);");
      out_.say("const int culift_at = (culift_c ^ (culift_r & 7)) * " + str(chunk_) + ";");
      for (size_t p = 0; p < a_.operands.size(); ++p) {
        CodeWriter::Scope operand = out_.open("");
        copyChunk(a_.operands[p], "culift_s" + str(p) + "[culift_sc][culift_r][culift_at]");
      }
    }
    for (size_t p = 0; p < vectors_.size(); ++p) {
      CodeWriter::Scope chunks = out_.open("for (int culift_q = culift_tid - 32; culift_q >= 0 && culift_q < " +
                                           str(chunks_) + "; culift_q += " + str(e_.threads - 32) + ")");
      out_.say("const long long culift_kq = " + sliceIndex + " * " + str(slice_) + " + culift_q * " + str(chunk_) +
               ";");
      CodeWriter::Scope inRange = out_.open("if (culift_kq < culift_trip)");
      out_.say("const int culift_valid = (int)min((long long)" + str(chunk_) + ", culift_trip - culift_kq);");
      copyChunk(*vectors_[p], "culift_b" + str(p) + "[culift_sc][culift_q * " + str(chunk_) + "]");
    }
  }
  out_.say("culift_copy_commit();");
}

// Per output (a thread of the first warp): the locals live across the loop, copies of the scalar
// parameters the body assigns, and the statements before the loop, run once.
void RowsWriter::perOutputState() {
  const bool value = returnsValue();
  perOut_ = prologueRewrites();
  for (VarId v : a_.live) {
    out_.say(typeOf(v) + " " + name(v) + " = {};");
    perOut_.vars[v] = name(v);
    perOut_.hoisted.insert(v);
  }
  assignedParamCopies(perOut_);
  out_.say("bool culift_done = culift_tid >= " + R_ + " || !(" + i_ +
           " < culift_ni);  // no output, or returned before the loop");
  if (a_.earlyReturn && value) out_.say(returnType() + " culift_res = {};");
  perOut_.returns = [value](const std::string& v) {
    return "{ " + (value ? "culift_res = " + v + "; " : std::string()) + "culift_done = true; continue; }";
  };
  out_.say("// The statements before the loop.");
  {
    CodeWriter::Scope once = out_.open("for (int culift_once = culift_done ? 1 : 0; culift_once < 1; ++culift_once)");
    for (const Stmt* s : a_.prologue) printWith(perOut_, *s);
  }
  if (a_.earlyReturn)
    out_.say("const bool culift_returned = culift_done && culift_tid < " + R_ + " && " + i_ + " < culift_ni;");
}

void RowsWriter::loop() {
  out_.say("// The loop: " + str(stages_ - 1) +
           " slices of the rows in flight while one is used, element by element in order.");
  for (unsigned s = 0; s + 1 < stages_; ++s) copySlice("(long long)" + str(s), str(s));
  out_.say("int culift_st = 0;");
  out_.say("#pragma unroll 1");
  {
    CodeWriter::Scope slices = out_.open("for (long long culift_t = 0; culift_t < culift_slices; ++culift_t)");
    out_.say("culift_copy_wait<" + str(stages_ - 2) + ">();");
    out_.say("__syncthreads();  // this slice visible to every thread; the stage used last is free");
    copySlice("(culift_t + " + str(stages_ - 1) + ")", "culift_st == 0 ? " + str(stages_ - 1) + " : culift_st - 1");
    step_ = perOut_;
    step_.returns = nullptr;
    for (size_t p = 0; p < a_.operands.size(); ++p)
      for (const Expr* read : a_.operands[p].reads) step_.exprs[read] = "culift_w" + str(p) + ".v[culift_e]";
    for (size_t p = 0; p < vectors_.size(); ++p)
      for (const Expr* read : vectors_[p]->reads)
        step_.exprs[read] = "culift_b" + str(p) + "[culift_st][culift_c * " + str(chunk_) + " + culift_e]";
    usesK_ = mentions(*a_.loop->body, a_.counter, step_);
    {
      CodeWriter::Scope live = out_.open("if (!culift_done)");
      out_.say("const long long culift_kn = min((long long)" + str(slice_) + ", culift_trip - culift_t * " +
               str(slice_) + ");");
      CodeWriter::Scope whole = out_.open("if (culift_kn == " + str(slice_) + ")");
      chunkLoop(true);
      whole.otherwise();
      chunkLoop(false);
    }
    out_.say("culift_st = culift_st == " + str(stages_ - 1) + " ? 0 : culift_st + 1;");
  }
  out_.say("culift_copy_wait<0>();");
  out_.say("__syncthreads();  // every slice used before the stages serve the next rows");
}

// The slice's chunks of this thread's row, element by element in order (`full`: the whole slice;
// else the culift_kn elements the loop has left).
void RowsWriter::chunkLoop(bool full) {
  out_.say(full ? "#pragma unroll 4" : "#pragma unroll 1");
  CodeWriter::Scope chunks = out_.open(
      std::string("for (int culift_c = 0; culift_c < ") +
      (full ? str(chunks_) : "(int)((culift_kn + " + str(chunk_ - 1) + ") / " + str(chunk_) + ")") + "; ++culift_c)");
  for (size_t p = 0; p < a_.operands.size(); ++p)
    out_.say("const " + vec(a_.operands[p]) + " culift_w" + str(p) + " = reinterpret_cast<const " +
             vec(a_.operands[p]) + "*>(culift_s" + str(p) + "[culift_st][culift_tid])[culift_c ^ (culift_tid & 7)];");
  out_.say("#pragma unroll");
  CodeWriter::Scope elements = out_.open("for (int culift_e = 0; culift_e < " + str(chunk_) + "; ++culift_e)");
  if (!full) out_.say("if (culift_c * " + str(chunk_) + " + culift_e >= culift_kn) break;");
  if (usesK_) out_.say(counterAt("culift_t * " + str(slice_) + " + culift_c * " + str(chunk_) + " + culift_e"));
  printBody(step_, *a_.loop->body);
}

void RowsWriter::epilogue() {
  out_.say("// The statements after the loop; a return stores the value.");
  out_.say("if (culift_tid >= " + R_ + " || !(" + i_ + " < culift_ni)) continue;");
  if (a_.earlyReturn) {
    CodeWriter::Scope returned = out_.open("if (culift_returned)");
    if (returnsValue()) out_.say(store("culift_res"));
    out_.say("continue;");
  }
  epilogueStoring(perOut_);
}

void emit(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  RowsWriter(module, fn, entry, out).write();
}

}  // namespace

const plans::Unit plans::kRowReduction{LoopPlan::RowReduction, decide, emit};

}  // namespace culift::codegen
