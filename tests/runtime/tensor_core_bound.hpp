// The numerical contract's bound on a contraction run on tensor cores
// (docs/numerical-contract.md#tensor-cores), shared by the emulated and the GPU tests.
#pragma once

#include <cstdint>

namespace culift::rttest {

// The formats' unit roundoff: fp16 keeps 11 significant bits, bf16 8; tf32 11 rounded to nearest,
// or truncated where the tensor cores read an fp32 operand from shared memory (the entries on
// warpgroups): 2^-10 covers both.
inline constexpr double kTf32Roundoff = 0x1p-10, kFp16Roundoff = 0x1p-11, kBf16Roundoff = 0x1p-8;

// For s = s0 + the sum of a_k b_k over `terms` k: |s~ - s| <= (2 u + (terms + 2) 2^-22) *
// `magnitude`, magnitude = |s0| + the sum of |a_k| |b_k|.
inline double contractionBound(double u, std::int64_t terms, double magnitude) {
  return (2.0 * u + static_cast<double>(terms + 2) * 0x1p-22) * magnitude;
}

}  // namespace culift::rttest
