// Contractions that opted into tensor cores, for the GPU leg: a tensor-core entry is not exact, so
// the leg checks it against the numerical contract's bound (docs/numerical-contract.md#tensor-cores)
// instead of bit for bit. Each program is a 2-D kernel `tc<N>` of random form (operand layouts and
// offsets, the sum's start, the statement after the loop, the format) and its twin `tc<N>_mag`, an
// exact kernel that computes the bound's magnitude: the same statements on absolute values, the
// result scaled as the kernel's result scales the sum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::rel {

struct TensorCoreProgram {
  std::string name;  // the kernel; its twin is name + "_mag"
  TensorCores format = TensorCores::TF32;
  std::string source;  // both kernels
  std::int64_t ni = 1, nj = 1, nk = 0;
  int lda = 1, ldb = 1, ldc = 1;  // row lengths of a, b and c
  std::size_t aCount = 1, bCount = 1, cCount = 1;
  float alpha = 1, beta = 1;
  std::uint64_t seed = 0;  // of its arrays' values
};

// Program `index` of `seed` (the same program for the same pair).
TensorCoreProgram tensorCoreProgram(std::uint64_t seed, unsigned index);

// Values in [-1, 1] for an array of program `p` (`which`: 0 a, 1 b, 2 c); for fp16, magnitudes below
// 2^-14 (fp16's smallest normal) are zeros, as the contract's fp16 range asks.
std::vector<float> tensorCoreValues(const TensorCoreProgram& p, unsigned which, std::size_t count);

// The format's unit roundoff (2^-10 tf32: rounded or truncated; 2^-11 fp16, 2^-8 bf16) and the bound's factor on the
// twin's magnitude: 2u + (nk + 4) 2^-22 (the entry's error, the loop as written in fp32, and the
// statement after the loop rounded twice).
double tensorCoreUnitRoundoff(TensorCores format);
double tensorCoreBoundFactor(const TensorCoreProgram& p);

}  // namespace culift::rel
