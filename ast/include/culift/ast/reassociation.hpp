// The one order a reassociated sum is added in (docs/numerical-contract.md#reassociated-sums),
// shared by everything that must reproduce it bit for bit: the GPU entries of the reassociating
// plans (translator/src/codegen/plans/warp_sums.cpp), the interpreter's launches
// (interpreter/src/compile_stmt.cpp) and the runtime, which sizes the split entries' scratch.
//
// A warp sum of values v_0 .. v_{m-1}: lane l of 32 adds v_l, v_{l+32}, ... in order to -0.0, then
// lanes l and l + d add their parts for d = 16, 8, 4, 2, 1; lane 0 holds the result.
// A loop's iterations t = 0 .. trip-1 are cut into chunks of kReassociationChunk; chunk c's sum is
// the warp sum of its iterations' terms; slot q (of kReassociationSlots) adds the sums of chunks
// q, q + kReassociationSlots, ... in order to -0.0; the loop's total is the warp sum of the slots;
// the sum is its value before the loop plus the total. A loop of at most one chunk thus adds as a
// single warp sum of its terms. Nothing of the launch (grid, entry, device) enters the order.
#pragma once

#include <cstdint>

namespace culift {

inline constexpr unsigned kReassociationLanes = 32;
inline constexpr std::int64_t kReassociationChunk = 4096;  // iterations per chunk
inline constexpr std::int64_t kReassociationSlots = 256;   // chunk sums combined as a warp sum of 256

// The scratch a split-row entry (BlockMapping::SplitRows) takes for a launch over `rows` rows
// with `sums` reassociated sums, at byte offsets from its start: a 32-bit ticket per row (zero
// between launches: the row's last block resets it), then for each sum its slots, 8 bytes each,
// row after row.
inline constexpr std::int64_t splitTicketBytes(std::int64_t rows) { return (rows * 4 + 255) / 256 * 256; }
inline constexpr std::int64_t splitSlotsOffset(std::int64_t rows, std::int64_t sum) {
  return splitTicketBytes(rows) + sum * rows * kReassociationSlots * 8;
}
inline constexpr std::int64_t splitScratchBytes(std::int64_t rows, std::int64_t sums) {
  return splitSlotsOffset(rows, sums);
}

}  // namespace culift
