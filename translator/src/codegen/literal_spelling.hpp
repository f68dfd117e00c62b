// Spellings of literals with their exact C++ type, shared by the CUDA emitter and the
// pseudocode writer, and the exact folding of casts applied to literals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "culift/ast/nodes.hpp"

namespace culift::codegen {

// A literal's spelling. `parenthesized` says the text is "(...)" around a negative value, so a
// caller printing a whole expression may drop the outer parentheses.
struct LiteralText {
  std::string text;
  bool parenthesized = false;
};

// An integer of scalar type `s` given as two's complement bits: "1", "1u", "1ll", "1ull",
// "((signed char)97)", "(-5)", "(-2147483647 - 1)", "true".
LiteralText integerLiteral(std::uint64_t bits, Scalar s);

// A floating value of type F32 or F64: shortest round-trip digits, always with a '.' or an
// exponent ("0.5f", "1.0", "1e-12f"). Infinities and NaNs: as bit patterns through
// __int_as_float / __longlong_as_double when `cudaBitPatterns` (CUDA C), else as C++ library
// calls. In CUDA C a zero is `culift_zero(0.0f)` / `culift_zero(-0.0)`: a value the device
// compiler cannot see as a constant (the device prelude says why).
LiteralText floatingLiteral(double value, Scalar s, bool cudaBitPatterns);

// A C string literal holding `text` exactly (quotes and backslashes escaped, other bytes below
// 0x20 or above 0x7e as octal escapes).
std::string stringLiteral(const std::string& text);

// The value of a literal (or a negated literal), for folding casts of it.
struct ConstantValue {
  Scalar type = Scalar::Void;
  bool isFloat = false;
  std::int64_t i = 0;   // integers and bool, sign-extended for signed types
  std::uint64_t u = 0;  // the same integer as unsigned bits
  double f = 0;         // F32 / F64
};
std::optional<ConstantValue> constantOf(const Expr& e);

// The literal `(T)value` when the conversion keeps the value exactly (16777217 -> float does
// not; 3 -> 3.0f and 0.5 -> 0.5f do), so the cast can be written as a literal of type T.
std::optional<LiteralText> foldExactCast(const ConstantValue& value, Scalar target);

}  // namespace culift::codegen
