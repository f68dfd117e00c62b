// The parts of a reassociated loop's order (culift/ast/reassociation.hpp) that run once per chunk
// of 4096 iterations or once per loop, as plain C++ the JIT's code calls: the warp sums of the
// partials and of the slots. Compiled without contraction, like the interpreter, whose
// ReassociatedLoopNode (interpreter/src/compile_stmt.cpp) adds in this order too.
#include <cstdint>

#include "culift/ast/reassociation.hpp"
#include "lower.hpp"

namespace culift::cpujit::detail {
namespace {

// The warp sum of partial[0 .. 32): lanes l and l + d added for d = 16, 8, 4, 2, 1.
template <typename T> void warpSum(T* partial) {
  for (unsigned d = kReassociationLanes / 2; d >= 1; d /= 2)
    for (unsigned l = 0; l < d; ++l) partial[l] = partial[l] + partial[l + d];
}

// A chunk ends: its warp sum goes to slot chunk % 256, and the partials start again from -0.0.
// The slots start from -0.0 when the first chunk ends (a loop of one chunk never touches them).
template <typename T> void endChunk(T* partial, T* slots, std::int64_t chunk) {
  if (chunk == 0)
    for (std::int64_t q = 0; q < kReassociationSlots; ++q) slots[q] = T(-0.0);
  warpSum(partial);
  T& slot = slots[chunk % kReassociationSlots];
  slot = slot + partial[0];
  for (unsigned l = 0; l < kReassociationLanes; ++l) partial[l] = T(-0.0);
}

// The loop's total: lane l adds slots l, l + 32, ... in order; then their warp sum.
template <typename T> T total(T* partial, T* slots) {
  for (unsigned l = 0; l < kReassociationLanes; ++l) {
    T lane = T(-0.0);
    for (std::int64_t q = l; q < kReassociationSlots; q += kReassociationLanes) lane = lane + slots[q];
    partial[l] = lane;
  }
  warpSum(partial);
  return partial[0];
}

// The total of a loop of one chunk: its warp sum. (The full order adds it to slot 0, -0.0, and
// then adds slot 0 to the other slots, all -0.0: x + -0.0 is x, so those adds change nothing.)
template <typename T> T singleChunkTotal(T* partial) {
  warpSum(partial);
  return partial[0];
}

}  // namespace

const char* ReassociationHelpers::singleChunkTotal(bool isDouble) {
  return isDouble ? "culift_reassociation_single_chunk_f64" : "culift_reassociation_single_chunk_f32";
}
const char* ReassociationHelpers::endChunk(bool isDouble) {
  return isDouble ? "culift_reassociation_end_chunk_f64" : "culift_reassociation_end_chunk_f32";
}
const char* ReassociationHelpers::total(bool isDouble) {
  return isDouble ? "culift_reassociation_total_f64" : "culift_reassociation_total_f32";
}

}  // namespace culift::cpujit::detail

using culift::cpujit::detail::endChunk;
using culift::cpujit::detail::singleChunkTotal;
using culift::cpujit::detail::total;
extern "C" {
void culift_reassociation_end_chunk_f32(float* p, float* s, std::int64_t c) { endChunk(p, s, c); }
void culift_reassociation_end_chunk_f64(double* p, double* s, std::int64_t c) { endChunk(p, s, c); }
float culift_reassociation_total_f32(float* p, float* s) { return total(p, s); }
double culift_reassociation_total_f64(double* p, double* s) { return total(p, s); }
float culift_reassociation_single_chunk_f32(float* p) { return singleChunkTotal(p); }
double culift_reassociation_single_chunk_f64(double* p) { return singleChunkTotal(p); }
}
