// What every plan's emitter shares: the loop's analysis, the printer of the user's statements,
// the entry's parameters and names, and the fragments every entry writes the same way (its
// header, the loop's bounds, a staged copy, a store). Lines go through the CodeWriter's
// structured output, at its depth: a fragment is written the same wherever it is nested.
//
// Per output, an entry runs the statements before the loop once (their locals become per-output
// registers), the loop body once per k in source order, the statements after it once: the same
// operations on the same values as the per-thread entry, hence the same bits (the printer's
// PrintRewrites redirect variables, loads and returns).
#pragma once

#include <string>
#include <vector>

#include "../ast_printer.hpp"
#include "../code_writer.hpp"
#include "../kernel_wrapper.hpp"
#include "analysis.hpp"

namespace culift::codegen {

inline std::string str(std::size_t v) { return std::to_string(v); }

// Whether `v` is read or written where the printed statements still show it (subexpressions
// the rewrites replace do not count): an entry declares only the indices a statement uses.
bool mentions(const Stmt& s, VarId v, const PrintRewrites& r);

class EntryWriter {
 public:
  // Throws std::logic_error when fn's loop no longer passes the analysis (a planner bug). A plan
  // that lifts no loop (`liftsLoop` false: a stencil) uses none of the loop's fragments.
  EntryWriter(const Module& module, const Function& fn, CodeWriter& out, bool liftsLoop = true);

 protected:
  std::string printWith(const PrintRewrites& r, const Expr& e);
  // A statement before or after the loop keeps a block's braces: names declared in it may be
  // declared again after it. The loop's body (`inEntryScope`) is printed in a scope of the
  // entry's own, so its outermost block's statements go there directly (C++ gives the counter
  // and that block one scope, so no name of the body is declared twice).
  void printWith(const PrintRewrites& r, const Stmt& s, bool inEntryScope = false);
  void printBody(const PrintRewrites& r, const Stmt& body) { printWith(r, body, true); }

  const std::string& name(VarId v) const { return printer_.varName(v); }
  std::string typeOf(VarId v) const { return std::string(spelling(fn_.vars[v].type.scalar)); }
  // Index a of the loop's outputs (i, j): after the batch where the loop is planned per batch.
  VarId axisVar(unsigned a) const { return static_cast<VarId>(fn_.indexParams.at(a + (batched() ? 1 : 0))); }
  bool batched() const { return a_.batch != kNone; }
  std::string counterType() const { return typeOf(a_.counter); }
  bool returnsValue() const { return !fn_.returnType.isVoid(); }
  std::string returnType() const { return std::string(spelling(fn_.returnType.scalar)); }

  // The entry's comment and `extern "C" __global__ ... {`; the scope closes the function.
  // `minBlocks`: the blocks an SM must hold at once (__launch_bounds__' second argument: the
  // device assembler then keeps the registers within their share); 0 says nothing.
  // (`minBlocksSpelled`, where not empty: the launch bound's blocks as the source spells them.)
  static std::string tensorMapParams(const PlanEntry& e);
  CodeWriter::Scope header(const PlanEntry& e, const std::string& what, unsigned minBlocks = 0,
                           const std::string& minBlocksSpelled = "");
  // The same with a comment of the entry's own (lines of `// ...`), and parameters of the entry's
  // own after the kernel's (`extra`, declarations; the runtime passes them by the entry's mapping).
  CodeWriter::Scope signature(const PlanEntry& e, const std::vector<std::string>& comment,
                              const std::string& extra = "", unsigned minBlocks = 0,
                              const std::string& minBlocksSpelled = "");
  // `const int culift_ni = (int)n_i;` (and culift_nj for 2-D entries: `columns`; culift_nb first,
  // the batches, where the loop is planned per batch and `batches` says the code loops over them).
  void extents(bool columns, bool batches = true);
  // The user's parameters under the names the statements print them with, where the entry's
  // parameter list had to rename them.
  void aliases();
  // The loop's start, bound and trip count, the same for every output.
  void bounds();
  // `const T k = ...;` for the counter at offset `offset` (a long long expression) from the start.
  std::string counterAt(const std::string& offset) const;
  // The copy of one element of operand `o` into `shared`, with the row index and k declared.
  void copyElement(const StagedOperand& o, const std::string& shared);
  // Copies the culift_valid elements of `o` from k = culift_lo + culift_kq on (at most 16 bytes) to
  // `dst` (16-byte aligned in shared memory): in one piece where they start 16-byte aligned in
  // memory and fill the 16 bytes, element by element where not (no copy reads past the row); the
  // row index is declared.
  void copyChunk(const StagedOperand& o, const std::string& dst);
  // Shared memory arrays (`T name[dims];`): static, or where the entry takes dynamic shared memory
  // (PlanEntry::sharedBytes), carved from it one after another as references to arrays (each
  // array's bytes a multiple of 16). Throws std::logic_error where their bytes are not the entry's.
  struct SharedArray {
    std::string name, element, dims, comment;
    std::size_t bytes = 0;
  };
  // `align`: of the dynamic allocation's start; `within`: the arrays may take less than the
  // entry's dynamic shared memory (a body for another target of an entry that declares more).
  void declareShared(const PlanEntry& e, const std::vector<SharedArray>& arrays, unsigned align = 16,
                     bool within = false);
  // The value store of a value-returning function at ([b, ]i[, j]).
  std::string store(const std::string& value) const;
  // The output's index in the out array (of the output at i, or i and j, of batch b).
  std::string outIndex() const;
  // The statements after the loop of a 1-D entry, inside its loop over rows: a return stores its
  // value and goes on to the next row.
  void epilogueStoring(PrintRewrites after);
  // `T culift_<v>_<id> = v;  // assigned by the body` for each scalar parameter the body assigns,
  // redirected in `r` (1-D entries: one output per thread).
  void assignedParamCopies(PrintRewrites& r);
  // The identity of a sum's additions: -0.0 (x + -0.0 is x for every x, +0.0 and -0.0 included).
  std::string identity(VarId v) const { return fn_.vars[v].type.scalar == Scalar::F32 ? "-0.0f" : "-0.0"; }
  // A warp per output (`culift_lane` declared before it): the loop over the rows, `warps` per
  // block and then a step of the grid, with the index declared; the scope closes it.
  CodeWriter::Scope warpPerRow(unsigned warps);
  // The statements before the loop on every lane of the warp (they are the same for the warp),
  // with copies of the scalar parameters the body assigns; a return stores its value from the
  // first lane and goes on to the next row. Returns the rewrites they were printed under.
  PrintRewrites prologueOnEveryLane();
  // Rewrites for the statements before the loop: the declarations of locals that only the staged
  // reads' indices use (inlined there) are dropped.
  PrintRewrites prologueRewrites() const;
  // The widest element the loop stages, in bytes.
  unsigned widestElement() const;

  const Function& fn_;
  CodeWriter& out_;
  AstPrinter printer_;
  EntryParams params_;
  LoopAnalysis a_;
  PrintRewrites inlineRewrites_;
};

}  // namespace culift::codegen
