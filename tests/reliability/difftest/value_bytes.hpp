// Interpreter values to and from the raw bytes the oracle keeps arguments and results in,
// and the comparison rule: identical bits, or NaN on both sides where the legs compared may
// legitimately give different NaNs (docs/numerical-contract.md, "Which legs compare NaN bits").
#pragma once

#include <cstdint>
#include <vector>

#include "culift/interpreter.hpp"

namespace culift::rel {

interp::Value valueFromBytes(Scalar type, const std::uint8_t* bytes);
std::vector<std::uint8_t> bytesOfValue(const interp::Value& v);
// How two NaNs compare. Any: equal whatever their sign and payload (legs that may fold a NaN at
// compile time, or the GPU's canonical NaN). Payload: equal when their bits agree but for the
// sign (two legs that compute every NaN at run time on the same host with the same math
// library: native -O0 and the interpreter; the sign is not comparable even there, since GCC
// folds -a * -b into a * b at -O0).
enum class NaNBits : std::uint8_t { Any, Payload };
bool sameValue(Scalar type, const std::uint8_t* a, const std::uint8_t* b, NaNBits nan = NaNBits::Any);
// Distance in ulps between two floating values of `type` (0 for identical or both NaN).
std::uint64_t ulpsBetween(Scalar type, const std::uint8_t* a, const std::uint8_t* b);

}  // namespace culift::rel
