// The analysis every loop plan starts from, run for every kernel (loop-free ones included): the
// reads of each array with their index expressions and offsets, and, for a kernel whose body is
// one counted loop, what the loop reads and what is live across it. Each plan's legality
// (plans/<plan>.cpp) decides from it whether the plan applies; its emitter writes the entries.
// Nothing here changes a result: an entry runs the user's statements once per output, in source
// order, with loads taken from staged tiles — except a reassociating row reduction, which only a
// kernel allowed to reassociate gets (reassociableSums below), adding in its documented order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::codegen {

// An array read in the loop whose index depends on one thread index (i or j) and on k, and on
// nothing that changes: the block stages its tile in shared memory.
struct StagedOperand {
  VarId array = kNone;                     // the pointer parameter read
  const Expr* index = nullptr;             // the index expression of its first read
  std::vector<const Expr*> reads;          // every Subscript node in the loop with this array and index
  unsigned axis = 0;                       // 0: rows i of the block; 1: columns j
  bool kContiguous = true;                 // copy along k (else along rows): consecutive k are neighbours in
                                           // memory, or neither are consecutive rows
  bool unitStride = false;                 // the index is k plus terms without k (steps of one element)
  std::optional<std::int64_t> axisStride;  // d(index)/d(the thread index of axis) where a literal
  // The index is c + a * k + b * (the index of axis), a and b free of both: a step along k or the
  // axis moves it by the same amount everywhere (a tiled entry's whole tiles step addresses).
  bool affine = false;
  Scalar element = Scalar::F32;
};

struct LoopAnalysis {
  const Stmt* loop = nullptr;  // the For statement
  // 3-D: the first index, the batch (b of f(..., b, i, j)); i and j are then the last two, and
  // what depends on b is the same for every output of a block (its batch slice).
  VarId batch = kNone;
  std::vector<const Stmt*> prologue;  // top-level statements before it, in order
  std::vector<const Stmt*> epilogue;  // and after it
  VarId counter = kNone;              // k
  const Expr* lowerBound = nullptr;   // k starts at it
  const Expr* upperBound = nullptr;   // k < it (k <= it when inclusive)
  bool inclusive = false;
  std::vector<VarId> carried;  // locals declared at the top level of the prologue
  std::vector<VarId> live;     // those the loop body or the epilogue still use once the
                               // staged reads are replaced: registers per output
  // Live locals the body assigns with `=` and never reads: each step overwrites them, so only
  // the last step's value counts (a contraction tiles what every step adds to; none here).
  std::vector<VarId> overwritten;
  std::vector<VarId> inlined;         // locals the bounds and staged indices use, by their init
  std::vector<VarId> assignedParams;  // scalar parameters the body assigns: a copy per output
  std::vector<StagedOperand> operands;
  // Reads indexed by k alone (the x of A x): the same element for every output. A row reduction
  // stages them beside its rows; axis and kContiguous mean nothing here.
  std::vector<StagedOperand> vectors;
  // 2-D: reads whose index depends on k and on both i and j (x[(i * d1 + k) * d2 + j]), read
  // unconditionally: one element per output and k, which no two outputs share (a column
  // reduction's loads; axis 1, kContiguous and unitStride as for operands). The contractions stage
  // tiles shared by a row or a column of outputs and take no such loop (bothAxesReason).
  std::vector<StagedOperand> outputReads;
  // 1-D: arrays the loop body writes, each at one index that depends on i and steps one element
  // per k (out[i * n + k] = s), written unconditionally on every step by a plain assignment and
  // never read (a scan's outputs; `reads` are the assigned Subscript nodes, axis 0, unitStride).
  // Only a plan whose unit says `takesLoopWrites` is asked for such a loop; for the others the
  // loop is not liftable, with writesReason ("out is written in the loop") saying why.
  std::vector<StagedOperand> writes;
  std::string writesReason;
  // Why a contraction cannot stage the loop's reads: "the index of x depends on both i and j"
  // for the first read whose index depends on both, unconditional or not ("" when none does).
  std::string bothAxesReason;
  bool earlyReturn = false;  // the prologue may return before the loop
};

// The analysis of `fn`'s loop, or nothing with `reason` saying why it runs per thread ("" when
// the body has no loop to lift).
std::optional<LoopAnalysis> analyzeLoop(const Function& fn, std::string& reason);

// One read of an array parameter, `array[index]`, anywhere in the body.
struct ArrayRead {
  VarId array = kNone;
  const Expr* read = nullptr;   // the Subscript node
  const Expr* index = nullptr;  // its index expression
  bool inLoop = false;          // inside a loop of the body
  // The index as `base + offset`: offset the sum of its integer literal terms (through + and -),
  // base the rest. Reads of one array whose bases are the same expression (sameBase) lie
  // offset - offset' elements apart: the footprint a stencil stages.
  std::int64_t offset = 0;
  struct Term {
    const Expr* expr;
    bool negated;
  };
  std::vector<Term> base;
  // d(index)/d(axis) for the thread indices i, j, k where it is a literal (index affine in it).
  std::optional<std::int64_t> stride[3];
};

// What every plan decides from.
struct KernelAnalysis {
  std::vector<ArrayRead> reads;      // every read of an array parameter, in source order
  std::optional<LoopAnalysis> loop;  // the one counted loop a contraction or reduction lifts
  std::string loopReason;            // why there is none ("" when the body has no loop)
};

// The analysis of kernel `fn`, whatever its body.
KernelAnalysis analyzeKernel(const Function& fn);

// Whether reads `a` and `b` of one array index it at `base + offset` with the same base.
bool sameBase(const ArrayRead& a, const ArrayRead& b);

// The sums a reassociating row reduction adds the loop's terms to (locals declared before the
// loop, of type float or double, that the loop only changes by statements `s += e`, `s -= e`,
// `s = s + e`, `s = s - e` with e of their type and free of every sum, and reads nowhere else),
// or nothing with `reason` saying why the loop must keep its order. The statements before the
// loop must not write arrays (a warp runs them once per lane).
// Why statements `stmts` write memory ("" when they do not): they write an array ("<where> write
// an array"), or pass a writable one to a call.
std::string arrayWriteReason(const std::vector<const Stmt*>& stmts, const std::string& where);
// Why the statements before the loop may not run once per lane of a warp ("" when they may): they
// write an array, or pass a writable one to a call.
std::string prologueWriteReason(const LoopAnalysis& analysis);

std::optional<std::vector<VarId>> reassociableSums(const Function& fn, const LoopAnalysis& analysis,
                                                   std::string& reason);

}  // namespace culift::codegen
