// C++'s arithmetic rules the generator needs: promotion, widths, and the literal spellings of
// the extreme values.
#pragma once

#include <cstdint>
#include <string>

#include "culift/ast/type.hpp"

namespace culift::rel {

inline bool isSmallInt(Scalar s) {
  return s == Scalar::Bool || s == Scalar::I8 || s == Scalar::U8 || s == Scalar::I16 || s == Scalar::U16;
}
inline bool isInt(Scalar s) { return culift::isInteger(s); }  // not bool
inline bool isIntLike(Scalar s) { return isInt(s) || s == Scalar::Bool; }
inline bool isFloat(Scalar s) { return s == Scalar::F32 || s == Scalar::F64; }
inline bool isSignedInt(Scalar s) {
  return s == Scalar::I8 || s == Scalar::I16 || s == Scalar::I32 || s == Scalar::I64;
}
inline unsigned bitWidth(Scalar s) { return s == Scalar::Bool ? 1 : 8 * byteSize(s); }

// Integral promotion: everything narrower than int becomes int.
inline Scalar promote(Scalar s) { return isSmallInt(s) ? Scalar::I32 : s; }

// The usual arithmetic conversions of two (promoted) operand types (LP64).
Scalar commonType(Scalar a, Scalar b);
inline Scalar unsignedOf(Scalar s) {
  switch (s) {
    case Scalar::I32: return Scalar::U32;
    case Scalar::I64: return Scalar::U64;
    default: return s;
  }
}

// A literal of `type` holding `bits` (two's complement / IEEE bits), spelled so that no
// constant expression in it overflows: INT_MIN is (-2147483647 - 1).
std::string literal(Scalar type, std::uint64_t bits);
std::string minLiteral(Scalar promoted);  // signed int / long long minimum

std::uint64_t bitsOfInt(Scalar type, std::int64_t v);     // v truncated to type's width
std::int64_t intOfBits(Scalar type, std::uint64_t bits);  // sign- or zero-extended
std::uint64_t bitsOfFloat(Scalar type, double v);

}  // namespace culift::rel
