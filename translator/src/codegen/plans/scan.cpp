// Scan (exact order), 1-D: a loop that writes as it goes (out[i * n + k] = s: a running sum,
// product, maximum ... of each row, any recurrence the user's statements carry). Each warp owns
// 32 rows, one per lane. It stages its rows in tiles of 128 consecutive bytes of each read array
// through shared memory with coalesced 16-byte copies, several tiles in flight; each lane runs the
// loop body for its own row over a tile's columns in order (the carried locals stay in its
// registers across tiles), writing into a shared tile of each written array, which the warp then
// stores coalesced. Warps share nothing: a warp waits on its own copies only (__syncwarp).
#include <algorithm>
#include <functional>

#include "entry_writer.hpp"
#include "plan.hpp"

namespace culift::codegen {
namespace {

constexpr unsigned kRowsPerWarp = 32;
constexpr unsigned kTileBytes = 128;  // of one row of one array per tile: 8 chunks of 16 bytes
constexpr unsigned kChunks = kTileBytes / 16;
constexpr unsigned kMostStages = 4;

// The tiles of each read array a warp keeps (one in use, the others in flight) with `warps` warps
// per block: static shared memory (48 KiB) holds them and one tile of each written array; 0 when
// fewer than 2 fit.
unsigned scanStages(const LoopAnalysis& a, unsigned warps) {
  const size_t tiles = 48 * 1024 / (warps * kRowsPerWarp * kTileBytes);  // tiles per warp
  if (tiles < a.writes.size() + 2 * a.operands.size()) return 0;
  return static_cast<unsigned>(std::min<size_t>(kMostStages, (tiles - a.writes.size()) / a.operands.size()));
}

// ---- legality --------------------------------------------------------------------------------

plans::Decision decide(const Function& f, const KernelAnalysis& analysis) {
  const LoopAnalysis& a = *analysis.loop;
  if (f.mode != IndexMode::Grid1D || a.writes.empty()) return plans::Decision::skip();
  const StagedOperand& first = a.operands.at(0);  // the analysis gives a loop with writes one at least
  for (const std::vector<StagedOperand>* arrays : {&a.operands, &a.writes})
    for (const StagedOperand& o : *arrays) {
      const std::string array = f.vars[o.array].name;
      if (!o.unitStride)
        return plans::Decision::no(array + " is not read at consecutive " + f.vars[a.counter].name +
                                   " (the index is not " + f.vars[a.counter].name + " plus terms without it)");
      if (byteSize(o.element) != byteSize(first.element))
        return plans::Decision::no("the arrays " + f.vars[first.array].name + " and " + array +
                                   " have elements of different sizes (a scan stages them in tiles of one shape)");
    }
  // Two warps per block, or one where rows are too few to give every multiprocessor a block (or
  // where two warps' tiles do not fit).
  std::vector<PlanEntry> entries;
  for (unsigned warps : {2u, 1u})
    if (scanStages(a, warps) >= 2)
      entries.push_back(plans::makeEntry(f, "_scan" + str(warps * kRowsPerWarp), LoopPlan::Scan, warps * kRowsPerWarp,
                                         1, warps * kRowsPerWarp, false));
  if (entries.empty())
    return plans::Decision::no(str(a.operands.size() + a.writes.size()) +
                               " arrays would be staged (their tiles do not fit in shared memory)");
  return plans::Decision::yes(std::move(entries));
}

// ---- codegen ---------------------------------------------------------------------------------

class ScanWriter : EntryWriter {
 public:
  ScanWriter(const Module& module, const Function& fn, const PlanEntry& e, CodeWriter& out)
      : EntryWriter(module, fn, out),
        e_(e),
        warps_(e.tileRows / kRowsPerWarp),
        stages_(scanStages(a_, warps_)),
        width_(byteSize(a_.operands.at(0).element)),  // the planner gives all staged arrays one width
        chunk_(16 / width_),
        cols_(kTileBytes / width_),
        i_(name(axisVar(0))) {}

  void write();

 private:
  std::string vec(Scalar s) const { return "culift_vec<" + std::string(spelling(s)) + ", " + str(chunk_) + ">"; }
  void sharedTiles();
  void warpTileChunks(const std::string& tileIndex, const std::function<void()>& each);
  void copyTile(const std::string& tileIndex, const std::string& stage);
  void storeTile();
  void storeChunks();
  void perOutputState();
  void loop();
  void chunkLoop(bool full);
  void epilogue();

  const PlanEntry& e_;
  const unsigned warps_, stages_, width_;
  const unsigned chunk_;  // elements per 16-byte chunk
  const unsigned cols_;   // columns (k) per tile
  const std::string i_;   // each staged array in its own element type (one width, types may differ)
  PrintRewrites perOut_, step_;
  bool usesK_ = false;
};

void ScanWriter::write() {
  CodeWriter::Scope entry = header(e_, str(kRowsPerWarp) + " rows per warp, one per lane, " + str(warps_) +
                                           (warps_ == 1 ? " warp" : " warps") + " per block; each row staged in " +
                                           str(kTileBytes) + "-byte tiles, " + str(stages_ - 1) +
                                           " in flight, its written values stored from a shared tile");
  extents(false);
  aliases();
  sharedTiles();
  bounds();
  out_.say("const long long culift_tiles = (culift_trip + " + str(cols_ - 1) + ") / " + str(cols_) + ";");
  out_.say("const int culift_lane = threadIdx.x % 32, culift_warp = threadIdx.x / 32;");
  out_.say("#pragma unroll 1");
  CodeWriter::Scope rows = out_.open(
      "for (long long culift_r0 = culift_first + ((long long)blockIdx.x * " + str(warps_) + " + culift_warp) * " +
      str(kRowsPerWarp) + "; culift_r0 < culift_ni; culift_r0 += (long long)gridDim.x * " + str(e_.tileRows) + ")");
  out_.say("const " + typeOf(axisVar(0)) + " " + i_ + " = (" + typeOf(axisVar(0)) + ")(culift_r0 + culift_lane);");
  perOutputState();
  out_.say("const unsigned culift_live = __ballot_sync(0xffffffffu, !culift_done);  // the rows that run the loop");
  loop();
  epilogue();
}

void ScanWriter::sharedTiles() {
  const std::string rows = "[" + str(warps_) + "]";
  for (size_t p = 0; p < a_.operands.size(); ++p)
    out_.say("__shared__ __align__(16) " + std::string(spelling(a_.operands[p].element)) + " culift_s" + str(p) + rows +
             "[" + str(stages_) + "][" + str(kRowsPerWarp) + "][" + str(cols_) + "];  // " +
             name(a_.operands[p].array) + "[" + printer_.printExpression(*a_.operands[p].index) + "]");
  for (size_t p = 0; p < a_.writes.size(); ++p)
    out_.say("__shared__ __align__(16) " + std::string(spelling(a_.writes[p].element)) + " culift_o" + str(p) + rows +
             "[" + str(kRowsPerWarp) + "][" + str(cols_) + "];  // " + name(a_.writes[p].array) + "[" +
             printer_.printExpression(*a_.writes[p].index) + "], written");
  out_.say("// Row r's 16-byte chunk c of a tile sits at chunk c ^ (r % 8): a lane reading its own row and the");
  out_.say("// copies of one row both meet every bank once.");
}

// The loop over the 16-byte chunks of tile `tileIndex` of the warp's rows, one per lane and step:
// `each` writes what is done with those of a row that runs the loop and of columns the loop has
// (row culift_r, chunk culift_c at culift_at, culift_valid elements from culift_kq on, the row
// index declared).
void ScanWriter::warpTileChunks(const std::string& tileIndex, const std::function<void()>& each) {
  out_.say("#pragma unroll 2");
  CodeWriter::Scope chunks = out_.open("for (int culift_q = culift_lane; culift_q < " + str(kRowsPerWarp * kChunks) +
                                       "; culift_q += 32)");
  out_.say("const int culift_r = culift_q / " + str(kChunks) + ", culift_c = culift_q % " + str(kChunks) + ";");
  out_.say("const long long culift_kq = " + tileIndex + " * " + str(cols_) + " + culift_c * " + str(chunk_) + ";");
  CodeWriter::Scope inRange = out_.open("if ((culift_live >> culift_r & 1u) && culift_kq < culift_trip)");
  out_.say("const " + typeOf(axisVar(0)) + " " + i_ + " = (" + typeOf(axisVar(0)) + ")(culift_r0 + culift_r);");
  out_.say("const int culift_valid = (int)min((long long)" + str(chunk_) + ", culift_trip - culift_kq);");
  out_.say("const int culift_at = (culift_c ^ (culift_r & 7)) * " + str(chunk_) + ";");
  each();
}

// Copies tile `tileIndex` of the warp's rows into a stage (a group of copies, empty past the last
// tile).
void ScanWriter::copyTile(const std::string& tileIndex, const std::string& stage) {
  {
    CodeWriter::Scope any = out_.open("if (" + tileIndex + " < culift_tiles)");
    out_.say("const int culift_sc = " + stage + ";");
    warpTileChunks(tileIndex, [&] {
      for (size_t p = 0; p < a_.operands.size(); ++p) {
        CodeWriter::Scope operand = out_.open("");
        copyChunk(a_.operands[p], "culift_s" + str(p) + "[culift_warp][culift_sc][culift_r][culift_at]");
      }
    });
  }
  out_.say("culift_copy_commit();");
}

// Stores the written tiles of tile culift_t: 16 bytes at a time where the row's chunk is whole and
// 16-byte aligned in memory, element by element where not.
void ScanWriter::storeTile() {
  out_.say("__syncwarp();  // the tile's written values visible to the warp");
  warpTileChunks("culift_t", [&] { storeChunks(); });
}

// The chunk of every written tile at culift_at stored to its array.
void ScanWriter::storeChunks() {
  for (size_t p = 0; p < a_.writes.size(); ++p) {
    const StagedOperand& w = a_.writes[p];
    const std::string v = vec(w.element), type(spelling(w.element));
    CodeWriter::Scope written = out_.open("");
    out_.say(counterAt("culift_kq"));
    out_.say(type + "* culift_dst = &" + name(w.array) + "[" + printWith(inlineRewrites_, *w.index) + "];");
    out_.say("const " + type + "* culift_src = &culift_o" + str(p) + "[culift_warp][culift_r][culift_at];");
    out_.say("if (culift_valid == " + str(chunk_) + " && reinterpret_cast<unsigned long long>(culift_dst) % 16 == 0)");
    out_.say("  *reinterpret_cast<" + v + "*>(culift_dst) = *reinterpret_cast<const " + v + "*>(culift_src);");
    out_.say("else");
    out_.say(
        "  for (int culift_e = 0; culift_e < culift_valid; ++culift_e) culift_dst[culift_e] = culift_src[culift_e];");
  }
}

// Per output (a lane): the locals live across the loop, copies of the scalar parameters the body
// assigns, and the statements before the loop, run once; a return there stores its value.
void ScanWriter::perOutputState() {
  const bool value = returnsValue();
  perOut_ = prologueRewrites();
  for (VarId v : a_.live) {
    out_.say(typeOf(v) + " " + name(v) + " = {};");
    perOut_.vars[v] = name(v);
    perOut_.hoisted.insert(v);
  }
  assignedParamCopies(perOut_);
  out_.say("bool culift_done = !(" + i_ + " < culift_ni);  // no row, or returned before the loop");
  perOut_.returns = [this, value](const std::string& v) {
    return "{ " + (value ? store(v) + " " : std::string()) + "culift_done = true; continue; }";
  };
  out_.say("// The statements before the loop.");
  CodeWriter::Scope once = out_.open("for (int culift_once = culift_done ? 1 : 0; culift_once < 1; ++culift_once)");
  for (const Stmt* s : a_.prologue) printWith(perOut_, *s);
}

void ScanWriter::loop() {
  out_.say("// The loop: " + str(stages_ - 1) + (stages_ == 2 ? " tile" : " tiles") +
           " of the rows in flight while one is used, element by element in order, then stored.");
  for (unsigned s = 0; s + 1 < stages_; ++s) copyTile("(long long)" + str(s), str(s));
  out_.say("int culift_st = 0;");
  out_.say("#pragma unroll 1");
  {
    CodeWriter::Scope tiles = out_.open("for (long long culift_t = 0; culift_t < culift_tiles; ++culift_t)");
    out_.say("culift_copy_wait<" + str(stages_ - 2) + ">();");
    out_.say("__syncwarp();  // this tile visible to the warp; the stage and the written tiles used last are free");
    copyTile("(culift_t + " + str(stages_ - 1) + ")", "culift_st == 0 ? " + str(stages_ - 1) + " : culift_st - 1");
    step_ = perOut_;
    step_.returns = nullptr;
    for (size_t p = 0; p < a_.operands.size(); ++p)
      for (const Expr* read : a_.operands[p].reads) step_.exprs[read] = "culift_w" + str(p) + ".v[culift_e]";
    for (size_t p = 0; p < a_.writes.size(); ++p)
      for (const Expr* target : a_.writes[p].reads) step_.exprs[target] = "culift_v" + str(p) + ".v[culift_e]";
    usesK_ = mentions(*a_.loop->body, a_.counter, step_);
    {
      CodeWriter::Scope live = out_.open("if (!culift_done)");
      out_.say("const long long culift_kn = min((long long)" + str(cols_) + ", culift_trip - culift_t * " + str(cols_) +
               ");");
      CodeWriter::Scope whole = out_.open("if (culift_kn == " + str(cols_) + ")");
      chunkLoop(true);
      whole.otherwise();
      chunkLoop(false);
    }
    storeTile();
    out_.say("culift_st = culift_st == " + str(stages_ - 1) + " ? 0 : culift_st + 1;");
  }
  out_.say("culift_copy_wait<0>();");
  out_.say("__syncwarp();  // every tile used and stored before the stages serve the next rows");
}

// The tile's chunks of this lane's row, element by element in order (`full`: the whole tile; else
// the culift_kn elements the loop has left), each chunk's written values kept in registers and
// then put in the written tiles whole.
void ScanWriter::chunkLoop(bool full) {
  out_.say(full ? "#pragma unroll 2" : "#pragma unroll 1");
  CodeWriter::Scope chunks = out_.open(
      std::string("for (int culift_c = 0; culift_c < ") +
      (full ? str(kChunks) : "(int)((culift_kn + " + str(chunk_ - 1) + ") / " + str(chunk_) + ")") + "; ++culift_c)");
  out_.say("const int culift_at = culift_c ^ (culift_lane & 7);");
  for (size_t p = 0; p < a_.operands.size(); ++p)
    out_.say("const " + vec(a_.operands[p].element) + " culift_w" + str(p) + " = reinterpret_cast<const " +
             vec(a_.operands[p].element) + "*>(culift_s" + str(p) +
             "[culift_warp][culift_st][culift_lane])[culift_at];");
  for (size_t p = 0; p < a_.writes.size(); ++p) out_.say(vec(a_.writes[p].element) + " culift_v" + str(p) + " = {};");
  {
    out_.say("#pragma unroll");
    CodeWriter::Scope elements = out_.open("for (int culift_e = 0; culift_e < " + str(chunk_) + "; ++culift_e)");
    if (!full) out_.say("if (culift_c * " + str(chunk_) + " + culift_e >= culift_kn) break;");
    if (usesK_) out_.say(counterAt("culift_t * " + str(cols_) + " + culift_c * " + str(chunk_) + " + culift_e"));
    printBody(step_, *a_.loop->body);
  }
  for (size_t p = 0; p < a_.writes.size(); ++p)
    out_.say("reinterpret_cast<" + vec(a_.writes[p].element) + "*>(culift_o" + str(p) +
             "[culift_warp][culift_lane])[culift_at] = culift_v" + str(p) + ";");
}

// The statements after the loop, once per row that ran it; a return stores the value.
void ScanWriter::epilogue() {
  if (a_.epilogue.empty()) return;
  out_.say("// The statements after the loop; a return stores the value.");
  CodeWriter::Scope once = out_.open("for (int culift_once = culift_done ? 1 : 0; culift_once < 1; ++culift_once)");
  epilogueStoring(perOut_);
}

void emit(const Module& module, const Function& fn, const PlanEntry& entry, CodeWriter& out) {
  ScanWriter(module, fn, entry, out).write();
}

}  // namespace

const plans::Unit plans::kScan{LoopPlan::Scan, decide, emit, false, true};

}  // namespace culift::codegen
