// What the two reassociating row plans (a warp per row, split rows) share: their sums added in
// the one documented order (culift/ast/reassociation.hpp) — each chunk of 4096 iterations a warp
// sum of its terms, each slot the chunks q, q + 256, ... in order, the loop's total a warp sum of
// the 256 slots — so that which entry a launch takes never changes a bit, and the CPU backend
// (interpreter/src/compile_stmt.cpp) reproduces both.
#pragma once

#include <string>
#include <vector>

#include "entry_writer.hpp"

namespace culift::codegen {

class WarpSumsWriter : protected EntryWriter {
 protected:
  // `deeper`: twice the loads in flight per lane (an entry whose blocks are too few to fill the
  // device with warps: the split rows); the order of the additions is the same.
  WarpSumsWriter(const Module& module, const Function& fn, CodeWriter& out, bool deeper = false);

  // `for (long long culift_q = first; <q is a slot with a chunk>; culift_q += step)`: the caller
  // writes, inside, slotSum() and what it does with each culift_a<s>.
  CodeWriter::Scope slotLoop(const std::string& first, const std::string& step);
  // `T culift_a<s> = <the sum of slot culift_q>;` for every sum: the warp sums of the chunks
  // culift_q, culift_q + 256, ... added in order to -0.0 (every lane holds it).
  void slotSum();
  // Lanes l and l ^ d add `prefix<s>` for d = 16, 8, 4, 2, 1 (every lane then holds the warp sum).
  void laneTree(const std::string& prefix);
  // `sum = sum + prefix<s>;` for every sum.
  void addToSums(const std::string& prefix);
  // `T prefix<s> = -0.0;  // comment` for every sum.
  void declare(const std::string& prefix, const std::string& comment);
  // The loop body's rewrites for one iteration (each sum renamed to its term), from those of the
  // statements before the loop.
  void startIterations(const PrintRewrites& perOutput);
  const std::vector<VarId>& sums() const { return sums_; }

 private:
  // Lane culift_lane's part of chunk culift_g: its iterations culift_g + lane, + 32, ... in order.
  void chunkPart();
  // One iteration `t`: its terms, each added to -0.0, then to the lane's part.
  void iteration(const std::string& t);

  const unsigned unroll_;  // iterations per lane and step: loads in flight
  const std::vector<VarId>& sums_;
  PrintRewrites step_;
  bool usesK_ = false;
};

}  // namespace culift::codegen
