// Row statistics in one pass: the fused kernels of a module (fused_statistics.cpp says which).
#pragma once

#include <vector>

#include "culift/ast/module.hpp"

namespace culift::codegen {

// At most this many fused kernels per module (pairs in module order): each is compiled with the
// module.
inline constexpr unsigned kMaxFusedStatistics = 8;

struct FusedCandidate {
  Function fused;  // Function::fusedOf names the pair; not yet classified or planned
  // The fused kernel's variables that its pair's plans reassociate, sorted: its own plan must
  // reassociate exactly these for each output to keep its kernel's bits.
  std::vector<VarId> sums;
};

// A fused kernel for each pair of 1-D kernels (f before g in the module) that take the same
// parameters, run the same loop and return one value each: f's statements before the loop, then
// g's; the loop running f's body, then g's; f's statements after it, storing its result in
// `<f>_out[i]`, then g's. Its parameters are f's, then `<f>_out` and `<g>_out`.
std::vector<FusedCandidate> fusedRowStatistics(const Module& module);

// Whether a classified and planned candidate gives each output its own kernel's bits.
bool keepsBits(const FusedCandidate& candidate);

}  // namespace culift::codegen
