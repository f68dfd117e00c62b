// The loop planner's legality step: whether a kernel's loop may run as a tiled contraction (2-D)
// or a staged row reduction (1-D), and what the entries need to know to emit it. The plan step
// (planLoops, in codegen.hpp) turns the analysis into Function::loopPlan and planEntries; the
// emitters (plan_entries.cpp) turn both into code. Nothing here changes a result: an entry runs
// the user's statements once per output, in source order, with loads taken from staged tiles —
// except a reassociating row reduction, which only a kernel allowed to reassociate gets
// (reassociableSums below), adding in its documented order.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::codegen {

// An array read in the loop whose index depends on one thread index (i or j) and on k, and on
// nothing that changes: the block stages its tile in shared memory.
struct StagedOperand {
  VarId array = kNone;             // the pointer parameter read
  const Expr* index = nullptr;     // the index expression of its first read
  std::vector<const Expr*> reads;  // every Subscript node in the loop with this array and index
  unsigned axis = 0;               // 0: rows i of the block; 1: columns j
  bool kContiguous = true;         // copy along k (else along rows): consecutive k are neighbours in
                                   // memory, or neither are consecutive rows
  bool unitStride = false;         // the index is k plus terms without k (steps of one element)
  Scalar element = Scalar::F32;
};

struct LoopAnalysis {
  const Stmt* loop = nullptr;         // the For statement
  std::vector<const Stmt*> prologue;  // top-level statements before it, in order
  std::vector<const Stmt*> epilogue;  // and after it
  VarId counter = kNone;              // k
  const Expr* lowerBound = nullptr;   // k starts at it
  const Expr* upperBound = nullptr;   // k < it (k <= it when inclusive)
  bool inclusive = false;
  std::vector<VarId> carried;         // locals declared at the top level of the prologue
  std::vector<VarId> live;            // those the loop body or the epilogue still use once the
                                      // staged reads are replaced: registers per output
  std::vector<VarId> inlined;         // locals the bounds and staged indices use, by their init
  std::vector<VarId> assignedParams;  // scalar parameters the body assigns: a copy per output
  std::vector<StagedOperand> operands;
  // Reads indexed by k alone (the x of A x): the same element for every output. A row reduction
  // stages them beside its rows; axis and kContiguous mean nothing here.
  std::vector<StagedOperand> vectors;
  bool earlyReturn = false;  // the prologue may return before the loop
};

// The analysis of `fn`'s loop, or nothing with `reason` saying why it runs per thread ("" when
// the body has no loop to lift).
std::optional<LoopAnalysis> analyzeLoop(const Function& fn, std::string& reason);

// Whether f(i, j) and f(j, i) compute the same operations on the same values, so give the same
// bits: the body with i and j exchanged is the body itself, up to the order of the operands of
// + and * (exact in IEEE arithmetic) and of == and !=. Locals the analysis inlines (`int ri =
// i * n;`) are compared as their initializers.
bool isSymmetric(const Function& fn, const LoopAnalysis& analysis);

// The sums a reassociating row reduction adds the loop's terms to (locals declared before the
// loop, of type float or double, that the loop only changes by statements `s += e`, `s -= e`,
// `s = s + e`, `s = s - e` with e of their type and free of every sum, and reads nowhere else),
// or nothing with `reason` saying why the loop must keep its order. The statements before the
// loop must not write arrays (a warp runs them once per lane).
std::optional<std::vector<VarId>> reassociableSums(const Function& fn, const LoopAnalysis& analysis,
                                                   std::string& reason);

}  // namespace culift::codegen
