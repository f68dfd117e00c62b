// Arguments valid for a function's signature, for self-checks: arrays long enough for every
// index the function reads with small index values, and non-degenerate values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "culift/interpreter.hpp"

namespace culift {

// One argument per user parameter. Arrays point into `storage`, which the object owns (moving
// keeps them valid; copying is disabled).
struct SampleArgs {
  std::vector<interp::Arg> args;
  std::vector<std::vector<std::byte>> storage;

  SampleArgs() = default;
  SampleArgs(SampleArgs&&) = default;
  SampleArgs& operator=(SampleArgs&&) = default;
  SampleArgs(const SampleArgs&) = delete;
  SampleArgs& operator=(const SampleArgs&) = delete;

  // "(x = float[256], cols = 8, i = 2)".
  std::string describe(const Function& fn) const;
};

// Integer scalars by name: cols 8, rows 16; index parameters (axis 0, 1, 2) 2, 5, 1; any other
// integer 3. Floating scalars and array elements come from `seed` (in [-4, 4], never all
// equal); integer arrays hold small values in [0, 8) so they stay usable as indices; arrays
// have kSampleArrayLength elements (every index of the form i*cols+k, i*rows+j is in bounds).
inline constexpr std::size_t kSampleArrayLength = 256;
SampleArgs sampleArgs(const Function& fn, std::uint64_t seed = 42);

}  // namespace culift
