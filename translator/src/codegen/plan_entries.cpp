// Emits the entries of a kernel's loop plan. Both forms keep the user's statements as they are
// and change only where the loop's operands come from:
//
//  - tiled contraction (2-D): a block computes tileRows x tileCols outputs, each of its 256
//    threads a register tile of them; the operands indexed by (i, k) and (j, k) are copied tile
//    by tile (k in steps of 8 or 16, two tiles in flight) into shared memory, and every output runs
//    the loop body on values read from there. The symmetric form computes the tiles on and
//    below the diagonal only and stores each result twice.
//  - row reduction (1-D): a warp computes 32 outputs, one per lane, and stages the 32 rows'
//    operands through shared memory in 256-byte slices (several stages in flight), so that its
//    loads are coalesced where one thread per row would stride a whole row between lanes.
//  - reassociating row reduction (1-D, opted in): a warp per output, 32 strided partial sums and
//    a fixed tree of shuffles (the order is documented at EntryWriter::warp).
//
// Per output, the statements before the loop run once (their locals become per-output
// registers), the loop body once per k in source order, the statements after it once: the
// same operations on the same values as the per-thread entry, hence the same bits.
#include "plan_entries.hpp"

#include <algorithm>
#include <stdexcept>

#include "ast_printer.hpp"
#include "culift/ast/stack.hpp"
#include "kernel_wrapper.hpp"
#include "loop_plan.hpp"

namespace culift::codegen {

unsigned tileStages(unsigned) { return 3; }
unsigned tileStep(unsigned tile, unsigned widestElement) { return tile >= 128 || widestElement > 4 ? 8 : 16; }

std::vector<const StagedOperand*> rowReductionVectors(const LoopAnalysis& a) {
  std::vector<const StagedOperand*> out;
  for (const StagedOperand& v : a.vectors)
    if (!a.operands.empty() && byteSize(v.element) == byteSize(a.operands[0].element)) out.push_back(&v);
  return out;
}

unsigned rowSliceBytes(unsigned rows) { return rows >= 32 ? 256 : 512; }

unsigned rowReductionStages(size_t operands, size_t vectors, unsigned rows) {
  const size_t perStage = (operands * rows + vectors) * rowSliceBytes(rows);  // one stage of every staged array
  const size_t fit = perStage ? 48 * 1024 / perStage : 6;                     // static shared memory: 48 KiB
  return static_cast<unsigned>(std::min<size_t>(6, fit));
}

namespace {


std::string str(std::size_t v) { return std::to_string(v); }

// Whether `v` is read or written where the printed statements still show it (subexpressions
// the rewrites replace do not count): an entry declares only the indices a statement uses.
bool mentions(const Stmt& s, VarId v, const PrintRewrites& r) {
  bool found = false;
  visitExprs(s, [&](const Expr& e) {
    if (found || r.exprs.count(&e)) return false;
    found = e.kind == ExprKind::VarRef && e.var == v;
    return true;
  });
  return found;
}

// What both forms share: the analysis, the printer, names and the pieces of text every entry
// writes the same way.
class EntryWriter {
 public:
  EntryWriter(const Module& module, const Function& fn, CodeWriter& out)
      : fn_(fn), out_(out), printer_(module, fn, Flavor::Cuda, out), params_(entryParams(fn)) {
    std::string reason;
    auto a = analyzeLoop(fn, reason);
    if (!a) throw std::logic_error("loop plan of " + fn.name + " does not hold: " + reason);
    a_ = std::move(*a);
    // Bounds and staged indices read locals through their initializers.
    for (VarId v : a_.inlined) {
      for (const Stmt* s : a_.prologue)
        if (s->kind == StmtKind::Decl && s->var == v && s->expr)
          inlineRewrites_.vars[v] = "(" + printWith(inlineRewrites_, *s->expr) + ")";
    }
  }

  void tiled(const PlanEntry& e);
  void rows(const PlanEntry& e);
  void warp(const PlanEntry& e);

 private:
  std::string printWith(const PrintRewrites& r, const Expr& e) {
    printer_.setRewrites(&r);
    std::string s = printer_.printExpression(e);
    printer_.setRewrites(nullptr);
    return s;
  }
  // A statement before or after the loop keeps a block's braces: names declared in it may be
  // declared again after it. The loop's body (`inEntryScope`) is printed in a scope of the
  // entry's own, so its outermost block's statements go there directly (C++ gives the counter
  // and that block one scope, so no name of the body is declared twice).
  void printWith(const PrintRewrites& r, const Stmt& s, unsigned indent, bool inEntryScope = false) {
    printer_.setRewrites(&r);
    if (inEntryScope && s.kind == StmtKind::Block && s.scoped)
      for (const StmtPtr& c : s.stmts) printer_.printStatement(*c, indent);
    else printer_.printStatement(s, indent);
    printer_.setRewrites(nullptr);
    out_.mapToGenerated();
  }
  void printBody(const PrintRewrites& r, const Stmt& body, unsigned indent) { printWith(r, body, indent, true); }

  const std::string& name(VarId v) const { return printer_.varName(v); }
  std::string typeOf(VarId v) const { return std::string(spelling(fn_.vars[v].type.scalar)); }
  VarId axisVar(unsigned a) const { return static_cast<VarId>(fn_.indexParams.at(a)); }
  std::string counterType() const { return typeOf(a_.counter); }

  void header(const PlanEntry& e, const std::string& what);
  void aliases(unsigned indent);
  void bounds(unsigned indent);
  // `const T k = ...;` for the counter at offset `offset` (a long long expression) from the start.
  std::string counterAt(const std::string& offset) const {
    return "const " + counterType() + " " + name(a_.counter) + " = (" + counterType() + ")(culift_lo + (" + offset +
           "));";
  }
  // The copy of one element of operand `o` into `shared`, with the row index and k declared.
  void copyElement(const StagedOperand& o, unsigned indent, const std::string& shared);
  // The value store of a value-returning function at (i[, j]).
  std::string store(const std::string& value) const;
  // The statements after the loop of a 1-D entry, inside its loop over rows (indent 2): a return
  // stores its value and goes on to the next row.
  void epilogueStoring(PrintRewrites after) {
    const bool value = !fn_.returnType.isVoid();
    after.returns = [&](const std::string& v) {
      return value ? "{ " + store(v) + " continue; }" : std::string("continue;");
    };
    for (const Stmt* s : a_.epilogue) printWith(after, *s, 2);
  }
  // The identity of a sum's additions: -0.0 (x + -0.0 is x for every x, +0.0 and -0.0 included).
  std::string identity(VarId v) const { return fn_.vars[v].type.scalar == Scalar::F32 ? "-0.0f" : "-0.0"; }

  // Rewrites for the statements before the loop: the declarations of locals that only the staged
  // reads' indices use (inlined there) are dropped.
  PrintRewrites prologueRewrites() const {
    PrintRewrites r;
    for (VarId v : a_.inlined) {
      if (std::find(a_.live.begin(), a_.live.end(), v) != a_.live.end()) continue;
      bool used = false;
      for (const Stmt* s : a_.prologue) used = used || mentions(*s, v, r);
      if (!used) r.dropped.insert(v);
    }
    return r;
  }

  const Function& fn_;
  CodeWriter& out_;
  AstPrinter printer_;
  EntryParams params_;
  LoopAnalysis a_;
  PrintRewrites inlineRewrites_;
};

void EntryWriter::header(const PlanEntry& e, const std::string& what) {
  out_.mapToGenerated();
  out_.line(0, "// " + fn_.name + ": " + std::string(culift::name(e.plan)) + ", " + what +
                   "; each output runs the loop in source order (the per-thread entry's bits).");
  out_.line(0, "extern \"C\" __global__ void __launch_bounds__(" + str(e.threads) + ") " + e.kernelName + "(" +
                   params_.declarations + ") {");
}

// The user's parameters under the names the statements print them with, where the entry's
// parameter list had to rename them.
void EntryWriter::aliases(unsigned indent) {
  for (size_t k = 0; k < fn_.signature.params.size(); ++k) {
    const KernelParam& p = fn_.signature.params[k];
    if (p.userParam < 0) continue;
    const std::string& printed = name(static_cast<VarId>(p.userParam));
    if (printed == params_.names[k]) continue;
    out_.line(indent, AstPrinter::declarator(fn_.vars[p.userParam].type, printed) + " = " +
                          flatPointer(p, params_.names[k]) + ";");
  }
}

// The loop's start, bound and trip count, the same for every output.
void EntryWriter::bounds(unsigned indent) {
  const Expr& cond = *a_.loop->cond;
  const std::string ct(spelling(cond.operands[0]->type.scalar));  // the comparison's type
  out_.line(indent, "const " + counterType() + " culift_lo = " + printWith(inlineRewrites_, *a_.lowerBound) + ";");
  out_.line(indent, "const " + ct + " culift_hi = " + printWith(inlineRewrites_, *a_.upperBound) + ";");
  const bool isSigned = culift::isSigned(cond.operands[0]->type.scalar);
  const std::string lo = "(" + ct + ")culift_lo";
  const std::string span = isSigned ? "(long long)culift_hi - (long long)" + lo : "(long long)(culift_hi - " + lo + ")";
  out_.line(indent, "const long long culift_trip = " + lo + (a_.inclusive ? " <= " : " < ") + "culift_hi ? " + span +
                        (a_.inclusive ? " + 1" : "") + " : 0;  // iterations of the loop over " + name(a_.counter));
}

void EntryWriter::copyElement(const StagedOperand& o, unsigned indent, const std::string& shared) {
  out_.line(indent, "culift_copy_async(&" + shared + ", &" + name(o.array) + "[" +
                        printWith(inlineRewrites_, *o.index) + "]);");
}

std::string EntryWriter::store(const std::string& value) const {
  if (fn_.mode == IndexMode::Grid2D)
    return params_.outName + "[(long long)" + name(axisVar(0)) + " * culift_nj + " + name(axisVar(1)) + "] = " + value +
           ";";
  return params_.outName + "[" + name(axisVar(0)) + "] = " + value + ";";
}

// ---- tiled contraction ---------------------------------------------------------------------

void EntryWriter::tiled(const PlanEntry& e) {
  const unsigned tm = e.tileRows / 16, tn = e.tileCols / 16;  // outputs per thread along i, j
  const unsigned stages = tileStages(e.tileRows);
  unsigned widest = 0;
  for (const StagedOperand& o : a_.operands) widest = std::max(widest, byteSize(o.element));
  const unsigned kStep = tileStep(e.tileRows, widest);
  const bool symmetric = e.plan == LoopPlan::SymmetricTiledContraction;
  const bool value = !fn_.returnType.isVoid();
  header(e, str(e.tileRows) + " x " + str(e.tileCols) + " outputs per block of " + str(e.threads) + " threads, " +
                str(tm) + " x " + str(tn) + " per thread, " + name(a_.counter) + " in steps of " + str(kStep) +
                (symmetric ? ", tiles on and below the diagonal, mirrored" : ""));
  out_.line(1, "const int culift_ni = (int)" + params_.extent[0] + ";");
  out_.line(1, "const int culift_nj = (int)" + params_.extent[1] + ";");
  aliases(1);
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    const unsigned rows = o.axis == 0 ? e.tileRows : e.tileCols;
    out_.line(1, "__shared__ __align__(16) " + std::string(spelling(o.element)) + " culift_s" + str(p) + "[" +
                     str(stages) + "][" + str(kStep) + "][" + str(rows + kTilePad) + "];  // " + name(o.array) + "[" +
                     printer_.printExpression(*o.index) + "]");
  }
  if (symmetric) {
    out_.line(1, "// Block b takes tile (culift_bi, culift_bj) with culift_bj <= culift_bi, row by row, and stores");
    out_.line(1, "// each result at (i, j) and (j, i).");
    out_.line(1, "const long long culift_b = blockIdx.x;");
    out_.line(1, "long long culift_bi = (long long)((sqrtf(8.0f * (float)culift_b + 1.0f) - 1.0f) * 0.5f);");
    out_.line(1, "while (culift_bi * (culift_bi + 1) / 2 > culift_b) --culift_bi;");
    out_.line(1, "while ((culift_bi + 1) * (culift_bi + 2) / 2 <= culift_b) ++culift_bi;");
    out_.line(1, "const long long culift_bj = culift_b - culift_bi * (culift_bi + 1) / 2;");
    out_.line(1, "const int culift_i0 = (int)culift_bi * " + str(e.tileRows) + ";");
    out_.line(1, "const int culift_j0 = (int)culift_bj * " + str(e.tileCols) + ";");
  } else {
    out_.line(1, "const int culift_i0 = blockIdx.y * " + str(e.tileRows) + ";");
    out_.line(1, "const int culift_j0 = blockIdx.x * " + str(e.tileCols) + ";");
  }
  out_.line(1, "const int culift_tx = threadIdx.x % 16, culift_ty = threadIdx.x / 16;");
  bounds(1);

  // Output (m, n) of this thread: rows in groups of 4, the groups tileRows / (tm / 4) apart.
  const std::string rowOf = "culift_i0 + (culift_m / 4) * " + str(e.tileRows / (tm / 4)) +
                            " + culift_ty * 4 + culift_m % 4";
  const std::string colOf = "culift_j0 + (culift_n / 4) * " + str(e.tileCols / (tn / 4)) +
                            " + culift_tx * 4 + culift_n % 4";
  const std::string bit = "(1ull << (culift_m * " + str(tn) + " + culift_n))";
  auto perOutput = [&](unsigned indent, const std::string& what, bool declareI = true, bool declareJ = true) {
    out_.line(indent, "// " + what);
    out_.line(indent, "#pragma unroll");
    out_.line(indent, "for (int culift_m = 0; culift_m < " + str(tm) + "; ++culift_m) {");
    out_.line(indent + 1, "#pragma unroll");
    out_.line(indent + 1, "for (int culift_n = 0; culift_n < " + str(tn) + "; ++culift_n) {");
    if (declareI) out_.line(indent + 2, "const " + typeOf(axisVar(0)) + " " + name(axisVar(0)) + " = " + rowOf + ";");
    if (declareJ) out_.line(indent + 2, "const " + typeOf(axisVar(1)) + " " + name(axisVar(1)) + " = " + colOf + ";");
  };
  auto endPerOutput = [&](unsigned indent) {
    out_.line(indent + 1, "}");
    out_.line(indent, "}");
  };

  // Locals live across the loop, and scalar parameters the body assigns (a copy per output, from
  // the parameter): one register per output.
  PrintRewrites perOut = prologueRewrites();
  auto perOutputRegister = [&](VarId v) {
    const std::string reg = "culift_" + name(v) + "_" + str(v);
    out_.line(1, typeOf(v) + " " + reg + "[" + str(tm) + "][" + str(tn) + "] = {};");
    perOut.vars[v] = reg + "[culift_m][culift_n]";
  };
  for (VarId v : a_.live) {
    perOutputRegister(v);
    perOut.hoisted.insert(v);
  }
  for (VarId v : a_.assignedParams) perOutputRegister(v);
  // A zero that starts a sum is a plain literal: the loop only adds to the sum, so the constant
  // meets no comparison that the device compiler could turn into a max / min (culift_zero's
  // reason), and culift_zero's register copies cost the 128-wide tiles registers (130 instead of
  // 127 for GramDot_sym128, which then fits one block per SM instead of two).
  std::string notSums;
  if (auto sums = reassociableSums(fn_, a_, notSums)) perOut.plainZero.insert(sums->begin(), sums->end());
  if (a_.earlyReturn) {
    out_.line(1, "unsigned long long culift_done = 0;  // outputs whose statements returned before the loop");
    if (value)
      out_.line(1, std::string(spelling(fn_.returnType.scalar)) + " culift_res[" + str(tm) + "][" + str(tn) + "];");
  }
  perOut.returns = [&](const std::string& v) {
    return "{ " + (value ? "culift_res[culift_m][culift_n] = " + v + "; " : std::string()) + "culift_done |= " + bit +
           "; continue; }";
  };
  perOutput(1, "The statements before the loop, per output.");
  out_.line(3, "if (" + name(axisVar(0)) + " >= culift_ni || " + name(axisVar(1)) + " >= culift_nj) " +
                   (a_.earlyReturn ? "{ culift_done |= " + bit + "; continue; }  // nothing to compute" : "continue;"));
  for (VarId v : a_.assignedParams) out_.line(3, perOut.vars.at(v) + " = " + name(v) + ";");
  for (const Stmt* s : a_.prologue) printWith(perOut, *s, 3);
  endPerOutput(1);

  // The copies of one tile of every operand into stage culift_sc, k from culift_kc (both
  // declared by the caller).
  auto copyTile = [&](unsigned indent) {
    out_.line(indent, "if (culift_kc < culift_trip) {");
    for (size_t p = 0; p < a_.operands.size(); ++p) {
      const StagedOperand& o = a_.operands[p];
      const unsigned rows = o.axis == 0 ? e.tileRows : e.tileCols;
      const VarId rowVar = axisVar(o.axis);
      out_.line(indent + 1, "#pragma unroll");
      out_.line(indent + 1, "for (int culift_e = threadIdx.x; culift_e < " + str(rows * kStep) +
                                "; culift_e += " + str(e.threads) + ") {");
      const std::string r = o.kContiguous ? "culift_e / " + str(kStep) : "culift_e % " + str(rows);
      const std::string q = o.kContiguous ? "culift_e % " + str(kStep) : "culift_e / " + str(rows);
      out_.line(indent + 2, "const int culift_r = " + r + ", culift_q = " + q + ";");
      out_.line(indent + 2, "const " + typeOf(rowVar) + " " + name(rowVar) + " = " +
                                (o.axis == 0 ? "culift_i0" : "culift_j0") + " + culift_r;");
      out_.line(indent + 2, "if (" + name(rowVar) + " < " + (o.axis == 0 ? "culift_ni" : "culift_nj") +
                                " && culift_kc + culift_q < culift_trip) {");
      out_.line(indent + 3, counterAt("culift_kc + culift_q"));
      copyElement(o, indent + 3, "culift_s" + str(p) + "[culift_sc][culift_q][culift_r]");
      out_.line(indent + 2, "}");
      out_.line(indent + 1, "}");
    }
    out_.line(indent, "}");
    out_.line(indent, "culift_copy_commit();");
  };

  // One step of k for every output: the operands from the stage, then the loop body.
  PrintRewrites step = perOut;
  step.returns = nullptr;
  for (size_t p = 0; p < a_.operands.size(); ++p)
    for (const Expr* read : a_.operands[p].reads)
      step.exprs[read] = "culift_v" + str(p) + (a_.operands[p].axis == 0 ? "[culift_m]" : "[culift_n]");
  const Stmt& loopBody = *a_.loop->body;
  auto kStepBody = [&](unsigned indent) {
    if (mentions(loopBody, a_.counter, step)) out_.line(indent, counterAt("culift_kt + culift_kk"));
    for (size_t p = 0; p < a_.operands.size(); ++p) {
      const StagedOperand& o = a_.operands[p];
      const unsigned t = o.axis == 0 ? tm : tn;
      const unsigned groupStride = (o.axis == 0 ? e.tileRows : e.tileCols) / (t / 4);
      const std::string v = "culift_v" + str(p);
      out_.line(indent, std::string(spelling(o.element)) + " " + v + "[" + str(t) + "];");
      out_.line(indent, "#pragma unroll");
      out_.line(indent, "for (int culift_u = 0; culift_u < " + str(t) + "; ++culift_u) " + v + "[culift_u] = culift_s" +
                            str(p) + "[culift_st][culift_kk][(culift_u / 4) * " + str(groupStride) + " + " +
                            (o.axis == 0 ? "culift_ty" : "culift_tx") + " * 4 + culift_u % 4];");
    }
    perOutput(indent, "The loop body, per output.", mentions(loopBody, axisVar(0), step),
              mentions(loopBody, axisVar(1), step));
    printBody(step, loopBody, indent + 2);
    endPerOutput(indent);
  };

  // The loop over k, tile by tile, stages - 1 tiles in flight: each step waits for its tile,
  // one barrier makes it visible and frees the stage used last, which takes the next copy. A block
  // whose outputs all returned before it (the far side of a triangle) skips it.
  const unsigned B = a_.earlyReturn ? 2 : 1;  // the loop's indentation
  if (a_.earlyReturn) {
    const unsigned outputs = tm * tn;
    out_.line(1, "// Every output of the block returned before the loop, or has none to compute: no loop.");
    out_.line(1, "if (!__syncthreads_and(culift_done == " +
                     (outputs == 64 ? std::string("~0ull") : "(1ull << " + str(outputs) + ") - 1") + ")) {");
  }
  out_.line(B, "// The loop over " + name(a_.counter) + ", tile by tile, " + str(stages - 1) +
                   " tiles in flight while one is used.");
  for (unsigned t = 0; t + 1 < stages; ++t) {
    out_.line(B, "{");
    out_.line(B + 1, "const long long culift_kc = " + str(t * kStep) + ";");
    out_.line(B + 1, "const int culift_sc = " + str(t) + ";");
    copyTile(B + 1);
    out_.line(B, "}");
  }
  out_.line(B, "int culift_st = 0;");
  out_.line(B, "#pragma unroll 1");
  out_.line(B, "for (long long culift_kt = 0; culift_kt < culift_trip; culift_kt += " + str(kStep) + ") {");
  out_.line(B + 1, "culift_copy_wait<" + str(stages - 2) + ">();");
  out_.line(B + 1, "__syncthreads();");
  out_.line(B + 1, "{");
  out_.line(B + 2, "const long long culift_kc = culift_kt + " + str((stages - 1) * kStep) + ";");
  out_.line(B + 2, "const int culift_sc = culift_st == 0 ? " + str(stages - 1) + " : culift_st - 1;");
  copyTile(B + 2);
  out_.line(B + 1, "}");
  out_.line(B + 1, "if (culift_kt + " + str(kStep) + " <= culift_trip) {");
  out_.line(B + 2, "#pragma unroll");
  out_.line(B + 2, "for (int culift_kk = 0; culift_kk < " + str(kStep) + "; ++culift_kk) {");
  kStepBody(B + 3);
  out_.line(B + 2, "}");
  out_.line(B + 1, "} else {");
  out_.line(B + 2, "#pragma unroll 1");
  out_.line(B + 2, "for (int culift_kk = 0; culift_kk < (int)(culift_trip - culift_kt); ++culift_kk) {");
  kStepBody(B + 3);
  out_.line(B + 2, "}");
  out_.line(B + 1, "}");
  out_.line(B + 1, "culift_st = culift_st == " + str(stages - 1) + " ? 0 : culift_st + 1;");
  out_.line(B, "}");
  if (a_.earlyReturn) out_.line(1, "}");

  // The statements after the loop, per output; a return stores the value.
  PrintRewrites after = perOut;
  std::string mirror;
  if (symmetric) {
    const std::string i = name(axisVar(0)), j = name(axisVar(1));
    mirror = " if (culift_bi != culift_bj && " + j + " < culift_ni && " + i + " < culift_nj) " + params_.outName +
             "[(long long)" + j + " * culift_nj + " + i + "] = culift_r;";
  }
  after.returns = [&](const std::string& v) {
    if (!value) return std::string("continue;");
    return "{ const " + std::string(spelling(fn_.returnType.scalar)) + " culift_r = " + v + "; " + store("culift_r") +
           mirror + " continue; }";
  };
  perOutput(1, "The statements after the loop, per output.");
  out_.line(3, "if (" + name(axisVar(0)) + " >= culift_ni || " + name(axisVar(1)) + " >= culift_nj) continue;");
  if (a_.earlyReturn) {
    out_.line(3, "if (culift_done & " + bit + ") {");
    if (value)
      out_.line(4, "const " + std::string(spelling(fn_.returnType.scalar)) +
                       " culift_r = culift_res[culift_m][culift_n]; " + store("culift_r") + mirror);
    out_.line(4, "continue;");
    out_.line(3, "}");
  }
  for (const Stmt* s : a_.epilogue) printWith(after, *s, 3);
  endPerOutput(1);
  out_.line(0, "}");
}

// ---- row reduction -------------------------------------------------------------------------

void EntryWriter::rows(const PlanEntry& e) {
  const unsigned width = byteSize(a_.operands.at(0).element);  // the planner gives all staged arrays one width
  const std::vector<const StagedOperand*> vectors = rowReductionVectors(a_);
  const unsigned stages = rowReductionStages(a_.operands.size(), vectors.size(), e.tileRows);
  const unsigned rowsPerBlock = e.tileRows;
  const unsigned sliceBytes = rowSliceBytes(e.tileRows);
  const bool value = !fn_.returnType.isVoid();
  const std::string element(spelling(a_.operands[0].element));
  const unsigned slice = sliceBytes / width;  // k per slice
  const unsigned chunk = 16 / width;          // elements per 16-byte chunk
  const unsigned chunks = slice / chunk;
  const std::string vec = "culift_vec<" + element + ", " + str(chunk) + ">";
  const std::string R = str(rowsPerBlock);
  header(e, R +
                " outputs per block, one per thread of its first warp, the other warps copying (the first never waits "
                "on a copy of its own); each row staged in " +
                str(sliceBytes) + "-byte slices, " + str(stages - 1) + " in flight");
  out_.line(1, "const int culift_ni = (int)" + params_.extent[0] + ";");
  aliases(1);
  for (size_t p = 0; p < a_.operands.size(); ++p) {
    const StagedOperand& o = a_.operands[p];
    out_.line(1, "__shared__ __align__(16) " + element + " culift_s" + str(p) + "[" + str(stages) + "][" + R + "][" +
                     str(slice) + "];  // " + name(o.array) + "[" + printer_.printExpression(*o.index) + "]");
  }
  for (size_t p = 0; p < vectors.size(); ++p)
    out_.line(1, "__shared__ __align__(16) " + element + " culift_b" + str(p) + "[" + str(stages) + "][" + str(slice) +
                     "];  // " + name(vectors[p]->array) + "[" + printer_.printExpression(*vectors[p]->index) + "]");
  out_.line(1, "// Row r's 16-byte chunk c of a slice sits at chunk c ^ (r % 8): a thread reading its own row and");
  out_.line(1, "// the copies of one row both meet every bank once.");
  bounds(1);
  out_.line(1, "const long long culift_slices = (culift_trip + " + str(slice - 1) + ") / " + str(slice) + ";");
  out_.line(1, "const int culift_tid = threadIdx.x;");
  const VarId iv = axisVar(0);
  const std::string i = name(iv);

  // Copies the culift_valid elements of `o` from k = culift_lo + culift_kq on to `dst` (16-byte
  // aligned in shared memory): in one piece where they start 16-byte aligned in memory, element by
  // element where not.
  auto copyChunk = [&](unsigned indent, const StagedOperand& o, const std::string& dst) {
    const std::string src = name(o.array) + "[" + printWith(inlineRewrites_, *o.index) + "]";
    out_.line(indent, counterAt("culift_kq"));
    out_.line(indent, "const " + element + "* culift_src = &" + src + ";");
    out_.line(indent, "if (reinterpret_cast<unsigned long long>(culift_src) % 16 == 0) {");
    out_.line(indent + 1, "culift_copy_async16(&" + dst + ", culift_src, culift_valid * " + str(width) + ");");
    out_.line(indent, "} else {");
    out_.line(indent + 1, "for (int culift_e = 0; culift_e < culift_valid; ++culift_e) {");
    out_.line(indent + 2, "const " + counterType() + " " + name(a_.counter) + " = (" + counterType() +
                              ")(culift_lo + (culift_kq + culift_e));");
    out_.line(indent + 2, "culift_copy_async(&" + dst + " + culift_e, &" + src + ");");
    out_.line(indent + 1, "}");
    out_.line(indent, "}");
  };

  // Copies slice `sliceIndex` of the block's rows into a stage, one 16-byte chunk per thread and
  // step (the first warp copies nothing: it sums).
  auto copySlice = [&](unsigned indent, const std::string& sliceIndex, const std::string& stage) {
    out_.line(indent, "if (" + sliceIndex + " < culift_slices) {");
    out_.line(indent + 1, "const int culift_sc = " + stage + ";");
    out_.line(indent + 1, "#pragma unroll 2");
    out_.line(indent + 1, "for (int culift_q = culift_tid - 32; culift_q >= 0 && culift_q < " +
                              str(rowsPerBlock * chunks) + "; culift_q += " + str(e.threads - 32) +
                              ") {  // the first warp sums");
    out_.line(indent + 2,
              "const int culift_r = culift_q / " + str(chunks) + ", culift_c = culift_q % " + str(chunks) + ";");
    out_.line(indent + 2, "const " + typeOf(iv) + " " + i + " = culift_r0 + culift_r;");
    out_.line(indent + 2,
              "const long long culift_kq = " + sliceIndex + " * " + str(slice) + " + culift_c * " + str(chunk) + ";");
    out_.line(indent + 2, "if (" + i + " < culift_ni && culift_kq < culift_trip) {");
    out_.line(indent + 3, "const int culift_valid = (int)min((long long)" + str(chunk) + ", culift_trip - culift_kq);");
    out_.line(indent + 3, "const int culift_at = (culift_c ^ (culift_r & 7)) * " + str(chunk) + ";");
    for (size_t p = 0; p < a_.operands.size(); ++p) {
      out_.line(indent + 3, "{");
      copyChunk(indent + 4, a_.operands[p], "culift_s" + str(p) + "[culift_sc][culift_r][culift_at]");
      out_.line(indent + 3, "}");
    }
    out_.line(indent + 2, "}");
    out_.line(indent + 1, "}");
    for (size_t p = 0; p < vectors.size(); ++p) {
      out_.line(indent + 1, "for (int culift_q = culift_tid - 32; culift_q >= 0 && culift_q < " + str(chunks) +
                                "; culift_q += " + str(e.threads - 32) + ") {");
      out_.line(indent + 2,
                "const long long culift_kq = " + sliceIndex + " * " + str(slice) + " + culift_q * " + str(chunk) + ";");
      out_.line(indent + 2, "if (culift_kq < culift_trip) {");
      out_.line(indent + 3,
                "const int culift_valid = (int)min((long long)" + str(chunk) + ", culift_trip - culift_kq);");
      copyChunk(indent + 3, *vectors[p], "culift_b" + str(p) + "[culift_sc][culift_q * " + str(chunk) + "]");
      out_.line(indent + 2, "}");
      out_.line(indent + 1, "}");
    }
    out_.line(indent, "}");
    out_.line(indent, "culift_copy_commit();");
  };

  out_.line(1, "#pragma unroll 1");
  out_.line(1, "for (int culift_r0 = blockIdx.x * " + R + "; culift_r0 < culift_ni; culift_r0 += gridDim.x * " + R +
                   ") {");
  out_.line(2, "const " + typeOf(iv) + " " + i + " = culift_r0 + culift_tid;");
  PrintRewrites perOut = prologueRewrites();
  for (VarId v : a_.live) {
    out_.line(2, typeOf(v) + " " + name(v) + " = {};");
    perOut.vars[v] = name(v);
    perOut.hoisted.insert(v);
  }
  for (VarId v : a_.assignedParams) {
    out_.line(2, typeOf(v) + " culift_" + name(v) + "_" + str(v) + " = " + name(v) + ";  // assigned by the body");
    perOut.vars[v] = "culift_" + name(v) + "_" + str(v);
  }
  out_.line(2, "bool culift_done = culift_tid >= " + R + " || !(" + i +
                   " < culift_ni);  // no output, or returned before the loop");
  if (a_.earlyReturn && value) out_.line(2, std::string(spelling(fn_.returnType.scalar)) + " culift_res = {};");
  perOut.returns = [&](const std::string& v) {
    return "{ " + (value ? "culift_res = " + v + "; " : std::string()) + "culift_done = true; continue; }";
  };
  out_.line(2, "// The statements before the loop.");
  out_.line(2, "for (int culift_once = culift_done ? 1 : 0; culift_once < 1; ++culift_once) {");
  for (const Stmt* s : a_.prologue) printWith(perOut, *s, 3);
  out_.line(2, "}");
  if (a_.earlyReturn)
    out_.line(2, "const bool culift_returned = culift_done && culift_tid < " + R + " && " + i + " < culift_ni;");

  out_.line(2, "// The loop: " + str(stages - 1) +
                   " slices of the rows in flight while one is used, element by element in order.");
  for (unsigned s = 0; s + 1 < stages; ++s) copySlice(2, "(long long)" + str(s), str(s));
  out_.line(2, "int culift_st = 0;");
  out_.line(2, "#pragma unroll 1");
  out_.line(2, "for (long long culift_t = 0; culift_t < culift_slices; ++culift_t) {");
  out_.line(3, "culift_copy_wait<" + str(stages - 2) + ">();");
  out_.line(3, "__syncthreads();  // this slice visible to every thread; the stage used last is free");
  copySlice(3, "(culift_t + " + str(stages - 1) + ")", "culift_st == 0 ? " + str(stages - 1) + " : culift_st - 1");
  PrintRewrites step = perOut;
  step.returns = nullptr;
  for (size_t p = 0; p < a_.operands.size(); ++p)
    for (const Expr* read : a_.operands[p].reads) step.exprs[read] = "culift_w" + str(p) + ".v[culift_e]";
  for (size_t p = 0; p < vectors.size(); ++p)
    for (const Expr* read : vectors[p]->reads)
      step.exprs[read] = "culift_b" + str(p) + "[culift_st][culift_c * " + str(chunk) + " + culift_e]";
  const bool usesK = mentions(*a_.loop->body, a_.counter, step);
  auto chunkLoop = [&](unsigned indent, bool full) {
    out_.line(indent, full ? "#pragma unroll 4" : "#pragma unroll 1");
    out_.line(indent, std::string("for (int culift_c = 0; culift_c < ") +
                          (full ? str(chunks) : "(int)((culift_kn + " + str(chunk - 1) + ") / " + str(chunk) + ")") +
                          "; ++culift_c) {");
    for (size_t p = 0; p < a_.operands.size(); ++p)
      out_.line(indent + 1, "const " + vec + " culift_w" + str(p) + " = reinterpret_cast<const " + vec + "*>(culift_s" +
                                str(p) + "[culift_st][culift_tid])[culift_c ^ (culift_tid & 7)];");
    out_.line(indent + 1, "#pragma unroll");
    out_.line(indent + 1, "for (int culift_e = 0; culift_e < " + str(chunk) + "; ++culift_e) {");
    const unsigned inner = indent + 2;
    if (!full) out_.line(inner, "if (culift_c * " + str(chunk) + " + culift_e >= culift_kn) break;");
    if (usesK) out_.line(inner, counterAt("culift_t * " + str(slice) + " + culift_c * " + str(chunk) + " + culift_e"));
    printBody(step, *a_.loop->body, inner);
    out_.line(indent + 1, "}");
    out_.line(indent, "}");
  };
  out_.line(3, "if (!culift_done) {");
  out_.line(4, "const long long culift_kn = min((long long)" + str(slice) + ", culift_trip - culift_t * " + str(slice) +
                   ");");
  out_.line(4, "if (culift_kn == " + str(slice) + ") {");
  chunkLoop(5, true);
  out_.line(4, "} else {");
  chunkLoop(5, false);
  out_.line(4, "}");
  out_.line(3, "}");
  out_.line(3, "culift_st = culift_st == " + str(stages - 1) + " ? 0 : culift_st + 1;");
  out_.line(2, "}");
  out_.line(2, "culift_copy_wait<0>();");
  out_.line(2, "__syncthreads();  // every slice used before the stages serve the next rows");

  out_.line(2, "// The statements after the loop; a return stores the value.");
  out_.line(2, "if (culift_tid >= " + R + " || !(" + i + " < culift_ni)) continue;");
  if (a_.earlyReturn) {
    out_.line(2, "if (culift_returned) {");
    if (value) out_.line(3, store("culift_res"));
    out_.line(3, "continue;");
    out_.line(2, "}");
  }
  epilogueStoring(perOut);
  out_.line(1, "}");
  out_.line(0, "}");
}

// ---- reassociating row reduction --------------------------------------------------------------

// The order it adds in, which the interpreter's launches reproduce (interpreter/src/reassociate.cpp):
// lane l of the output's warp sums the terms of iterations l, l + 32, l + 64, ... in order, each
// term being what the loop body adds to the sum in that iteration (added to -0.0, the sum's
// identity); lanes l and l ^ d then add their partial sums for d = 16, 8, 4, 2, 1; the sum is its
// value before the loop plus the total.
void EntryWriter::warp(const PlanEntry& e) {
  const bool value = !fn_.returnType.isVoid();
  const unsigned warpsPerBlock = e.threads / 32;
  unsigned widest = 0;
  for (const StagedOperand& o : a_.operands) widest = std::max(widest, byteSize(o.element));
  const unsigned unroll = widest > 4 ? 8 : 16;  // iterations per lane and step: loads in flight
  out_.mapToGenerated();
  out_.line(0, "// " + fn_.name + ": " + std::string(culift::name(e.plan)) + ", a warp per output, " +
                   str(warpsPerBlock) + " per block of " + str(e.threads) +
                   " threads; lane l adds the terms of iterations l, l + 32, ... in order,");
  out_.line(
      0, "// then the lanes add their sums pairwise (l and l ^ d for d = 16, 8, 4, 2, 1): the same bits on every run");
  out_.line(0, "// and on the CPU backend (docs/numerical-contract.md bounds the difference from the loop's order).");
  out_.line(0, "extern \"C\" __global__ void __launch_bounds__(" + str(e.threads) + ") " + e.kernelName + "(" +
                   params_.declarations + ") {");
  out_.line(1, "const int culift_ni = (int)" + params_.extent[0] + ";");
  aliases(1);
  out_.line(1, "const int culift_lane = threadIdx.x % 32;");
  const VarId iv = axisVar(0);
  const std::string i = name(iv);
  out_.line(1, "#pragma unroll 1");
  out_.line(1, "for (long long culift_row = (long long)blockIdx.x * " + str(warpsPerBlock) +
                   " + threadIdx.x / 32; culift_row < culift_ni; culift_row += (long long)gridDim.x * " +
                   str(warpsPerBlock) + ") {");
  out_.line(2, "const " + typeOf(iv) + " " + i + " = (" + typeOf(iv) + ")culift_row;");
  PrintRewrites perOut;
  for (VarId v : a_.assignedParams) {
    out_.line(2, typeOf(v) + " culift_" + name(v) + "_" + str(v) + " = " + name(v) + ";  // assigned by the body");
    perOut.vars[v] = "culift_" + name(v) + "_" + str(v);
  }
  out_.line(2, "// The statements before the loop, on every lane (they are the same for the warp).");
  perOut.returns = [&](const std::string& v) {
    return value ? "{ if (culift_lane == 0) " + store(v) + " continue; }" : std::string("continue;");
  };
  for (const Stmt* s : a_.prologue) printWith(perOut, *s, 2);
  bounds(2);

  const std::vector<VarId>& sums = fn_.reassociatedSums;
  PrintRewrites step = perOut;
  step.returns = nullptr;
  for (size_t s = 0; s < sums.size(); ++s) {
    out_.line(2, typeOf(sums[s]) + " culift_p" + str(s) + " = " + identity(sums[s]) + ";  // this lane's part of " +
                     name(sums[s]));
    step.vars[sums[s]] = "culift_c" + str(s);
  }
  const bool usesK = mentions(*a_.loop->body, a_.counter, step);
  auto iteration = [&](unsigned indent, const std::string& t) {
    if (usesK) out_.line(indent, counterAt(t));
    for (size_t s = 0; s < sums.size(); ++s)
      out_.line(indent,
                typeOf(sums[s]) + " culift_c" + str(s) + " = " + identity(sums[s]) + ";  // this iteration's term");
    printBody(step, *a_.loop->body, indent);
    for (size_t s = 0; s < sums.size(); ++s)
      out_.line(indent, "culift_p" + str(s) + " = culift_p" + str(s) + " + culift_c" + str(s) + ";");
  };
  out_.line(2, "long long culift_t = culift_lane;  // iteration index");
  out_.line(2, "#pragma unroll 1");
  out_.line(2,
            "for (; culift_t + " + str(32 * (unroll - 1)) + " < culift_trip; culift_t += " + str(32 * unroll) + ") {");
  out_.line(3, "#pragma unroll");
  out_.line(3, "for (int culift_u = 0; culift_u < " + str(unroll) + "; ++culift_u) {");
  iteration(4, "culift_t + 32 * culift_u");
  out_.line(3, "}");
  out_.line(2, "}");
  out_.line(2, "#pragma unroll 1");
  out_.line(2, "for (; culift_t < culift_trip; culift_t += 32) {");
  iteration(3, "culift_t");
  out_.line(2, "}");
  out_.line(2, "#pragma unroll");
  out_.line(2, "for (int culift_d = 16; culift_d >= 1; culift_d /= 2) {");
  for (size_t s = 0; s < sums.size(); ++s)
    out_.line(3, "culift_p" + str(s) + " = culift_p" + str(s) + " + __shfl_xor_sync(0xffffffffu, culift_p" + str(s) +
                     ", culift_d);");
  out_.line(2, "}");
  for (size_t s = 0; s < sums.size(); ++s)
    out_.line(2, name(sums[s]) + " = " + name(sums[s]) + " + culift_p" + str(s) + ";");
  out_.line(2, "// The statements after the loop, on the first lane; a return stores the value.");
  out_.line(2, "if (culift_lane != 0) continue;");
  epilogueStoring(perOut);
  out_.line(1, "}");
  out_.line(0, "}");
}

}  // namespace

void emitPlanEntries(const Module& module, const Function& fn, CodeWriter& out) {
  if (fn.planEntries.empty()) return;
  // The statements are printed as deep as the user nested them: on culift's stack.
  runOnCuliftStack([&] {
    EntryWriter writer(module, fn, out);
    for (const PlanEntry& e : fn.planEntries) {
      out.blank();
      switch (e.plan) {
        case LoopPlan::TiledContraction:
        case LoopPlan::SymmetricTiledContraction: writer.tiled(e); break;
        case LoopPlan::RowReduction: writer.rows(e); break;
        case LoopPlan::ReassociatingRowReduction: writer.warp(e); break;
        case LoopPlan::PerThread: throw std::logic_error("a per-thread plan has no extra entry");
      }
    }
  });
}

}  // namespace culift::codegen
