// Interpreter values to and from the raw bytes the oracle keeps arguments and results in,
// and the comparison rule: identical bits, or NaN on both sides.
#pragma once

#include <cstdint>
#include <vector>

#include "culift/interpreter.hpp"

namespace culift::rel {

interp::Value valueFromBytes(Scalar type, const std::uint8_t* bytes);
std::vector<std::uint8_t> bytesOfValue(const interp::Value& v);
bool sameValue(Scalar type, const std::uint8_t* a, const std::uint8_t* b);
// Distance in ulps between two floating values of `type` (0 for identical or both NaN).
std::uint64_t ulpsBetween(Scalar type, const std::uint8_t* a, const std::uint8_t* b);

}  // namespace culift::rel
