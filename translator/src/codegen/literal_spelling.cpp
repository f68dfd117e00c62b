#include "literal_spelling.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace culift::codegen {
namespace {

std::int64_t signExtend(std::uint64_t bits, unsigned bytes) {
  if (bytes >= 8) return static_cast<std::int64_t>(bits);
  const unsigned shift = 64 - 8 * bytes;
  return static_cast<std::int64_t>(bits << shift) >> shift;
}

std::uint64_t truncateBits(std::uint64_t bits, unsigned bytes) {
  return bytes >= 8 ? bits : bits & ((std::uint64_t{1} << (8 * bytes)) - 1);
}

LiteralText negativeOrPlain(std::string digits, bool negative) {
  if (!negative) return {std::move(digits), false};
  return {"(-" + digits + ")", true};
}

std::string hexBits(std::uint64_t bits) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, bits, 16);
  (void)ec;
  return "0x" + std::string(buf, end);
}

}  // namespace

LiteralText integerLiteral(std::uint64_t bits, Scalar s) {
  const unsigned bytes = byteSize(s);
  switch (s) {
    case Scalar::Bool: return {bits ? "true" : "false", false};
    case Scalar::I32:
    case Scalar::I64: {
      const std::int64_t v = signExtend(bits, bytes);
      const std::string suffix = s == Scalar::I64 ? "ll" : "";
      if (s == Scalar::I32 && v == std::numeric_limits<std::int32_t>::min()) return {"(-2147483647 - 1)", true};
      if (s == Scalar::I64 && v == std::numeric_limits<std::int64_t>::min())
        return {"(-9223372036854775807ll - 1ll)", true};
      const std::uint64_t magnitude = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
      return negativeOrPlain(std::to_string(magnitude) + suffix, v < 0);
    }
    case Scalar::U32: return {std::to_string(truncateBits(bits, 4)) + "u", false};
    case Scalar::U64: return {std::to_string(bits) + "ull", false};
    case Scalar::I8:
    case Scalar::I16:
      // No literal suffix exists for these types: an int literal converted exactly.
      return {"((" + std::string(spelling(s)) + ")" + std::to_string(signExtend(bits, bytes)) + ")", true};
    case Scalar::U8:
    case Scalar::U16:
      return {"((" + std::string(spelling(s)) + ")" + std::to_string(truncateBits(bits, bytes)) + ")", true};
    case Scalar::F32:
    case Scalar::F64: {
      LiteralText t = floatingLiteral(static_cast<double>(static_cast<std::int64_t>(bits)), s, true);
      return t;
    }
    case Scalar::Void: break;
  }
  return {std::to_string(bits), false};
}

LiteralText floatingLiteral(double value, Scalar s, bool cudaBitPatterns) {
  const bool single = s == Scalar::F32;
  if (!std::isfinite(value)) {
    if (single) {
      const std::uint32_t bits = std::bit_cast<std::uint32_t>(static_cast<float>(value));
      if (!cudaBitPatterns) {
        if (std::isnan(value)) return {"__builtin_bit_cast(float, " + hexBits(bits) + "u)", false};
        return negativeOrPlain("std::numeric_limits<float>::infinity()", std::signbit(value));
      }
      if (bits < 0x80000000u) return {"__int_as_float(" + hexBits(bits) + ")", false};
      return {"__int_as_float((int)" + hexBits(bits) + "u)", false};
    }
    const std::uint64_t bits = std::bit_cast<std::uint64_t>(value);
    if (!cudaBitPatterns) {
      if (std::isnan(value)) return {"__builtin_bit_cast(double, " + hexBits(bits) + "ull)", false};
      return negativeOrPlain("std::numeric_limits<double>::infinity()", std::signbit(value));
    }
    if (bits < 0x8000000000000000ull) return {"__longlong_as_double(" + hexBits(bits) + "ll)", false};
    return {"__longlong_as_double((long long)" + hexBits(bits) + "ull)", false};
  }
  if (cudaBitPatterns && value == 0) {
    // Zeros through the prelude's culift_zero, which the device compiler cannot fold (see there).
    const char* zero = single ? (std::signbit(value) ? "-0.0f" : "0.0f") : (std::signbit(value) ? "-0.0" : "0.0");
    return {std::string("culift_zero(") + zero + ")", false};
  }
  char buf[64];
  std::to_chars_result r;
  const double magnitude = std::fabs(value);
  if (single) r = std::to_chars(buf, buf + sizeof buf, static_cast<float>(magnitude));
  else r = std::to_chars(buf, buf + sizeof buf, magnitude);
  std::string digits(buf, r.ptr);
  if (digits.find_first_of(".e") == std::string::npos) digits += ".0";
  if (single) digits += 'f';
  return negativeOrPlain(std::move(digits), std::signbit(value));
}

std::optional<ConstantValue> constantOf(const Expr& e) {
  if (!e.type.isValue()) return std::nullopt;
  switch (e.kind) {
    case ExprKind::IntLiteral:
    case ExprKind::BoolLiteral: {
      const Scalar s = e.kind == ExprKind::BoolLiteral ? Scalar::Bool : e.type.scalar;
      if (!isInteger(s) && s != Scalar::Bool) return std::nullopt;
      ConstantValue c;
      c.type = s;
      const unsigned bytes = byteSize(s);
      c.u = truncateBits(e.intBits, bytes);
      c.i = isSigned(s) ? signExtend(e.intBits, bytes) : static_cast<std::int64_t>(c.u);
      if (s == Scalar::Bool) c.u = c.i = e.intBits != 0;
      return c;
    }
    case ExprKind::FloatLiteral: {
      if (!isFloating(e.type.scalar)) return std::nullopt;
      ConstantValue c;
      c.type = e.type.scalar;
      c.isFloat = true;
      c.f = e.type.scalar == Scalar::F32 ? static_cast<float>(e.floatValue) : e.floatValue;
      return c;
    }
    case ExprKind::Unary: {
      if (e.unaryOp != UnaryOp::Neg || e.operands.size() != 1) return std::nullopt;
      const auto inner = constantOf(*e.operands[0]);
      if (!inner || inner->type != e.type.scalar) return std::nullopt;
      ConstantValue c = *inner;
      if (c.isFloat) {
        c.f = -c.f;
        return c;
      }
      // Only negations C++ defines for the type: no signed overflow, and unsigned wraps.
      if (isSigned(c.type)) {
        const std::int64_t lo = c.type == Scalar::I64 ? std::numeric_limits<std::int64_t>::min()
                                                      : std::numeric_limits<std::int32_t>::min();
        if (c.i == lo || (c.type != Scalar::I64 && c.type != Scalar::I32)) return std::nullopt;
        c.i = -c.i;
        c.u = truncateBits(static_cast<std::uint64_t>(c.i), byteSize(c.type));
        return c;
      }
      if (c.type != Scalar::U32 && c.type != Scalar::U64) return std::nullopt;
      c.u = truncateBits(0 - c.u, byteSize(c.type));
      c.i = static_cast<std::int64_t>(c.u);
      return c;
    }
    default: return std::nullopt;
  }
}

namespace {
bool fitsInteger(long double v, Scalar target) {
  const unsigned bits = 8 * byteSize(target);
  if (isSigned(target)) {
    const long double lo = -std::ldexp(1.0L, static_cast<int>(bits) - 1);
    return v >= lo && v < -lo;
  }
  return v >= 0 && v < std::ldexp(1.0L, static_cast<int>(bits));
}
}  // namespace

std::optional<LiteralText> foldExactCast(const ConstantValue& value, Scalar target) {
  if (target == Scalar::Void) return std::nullopt;
  if (target == Scalar::Bool) {
    if (value.isFloat || (value.u != 0 && value.u != 1) || value.i < 0) return std::nullopt;
    return integerLiteral(value.u, Scalar::Bool);
  }
  // The exact value, as a long double: integers up to 64 bits and doubles are all exact in the
  // x87 80-bit format.
  long double exact;
  if (value.isFloat) exact = value.f;
  else if (isSigned(value.type) && value.type != Scalar::Bool) exact = static_cast<long double>(value.i);
  else exact = static_cast<long double>(value.u);
  static_assert(std::numeric_limits<long double>::digits >= 64, "needs 64-bit exact long double");

  if (isFloating(target)) {
    if (value.isFloat && std::isnan(value.f)) return std::nullopt;
    const double asDouble = static_cast<double>(exact);
    const double converted = target == Scalar::F32 ? static_cast<double>(static_cast<float>(asDouble)) : asDouble;
    if (static_cast<long double>(converted) != exact) return std::nullopt;
    if (!value.isFloat && converted == 0 && std::signbit(converted)) return std::nullopt;
    return floatingLiteral(converted, target, true);
  }
  // Integer target: only values the target holds exactly (no truncation, no wrap).
  if (exact != std::trunc(exact) || !fitsInteger(exact, target)) return std::nullopt;
  const std::uint64_t bits = isSigned(target) ? static_cast<std::uint64_t>(static_cast<std::int64_t>(exact))
                                              : static_cast<std::uint64_t>(exact);
  return integerLiteral(bits, target);
}

// A C string literal holding `text` exactly.
std::string stringLiteral(const std::string& text) {
  std::string s = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      s += '\\';
      s += c;
    } else if (u < 0x20 || u >= 0x7f) {
      // Octal escapes end after three digits: no following character can extend them.
      s += '\\';
      s += static_cast<char>('0' + (u >> 6));
      s += static_cast<char>('0' + ((u >> 3) & 7));
      s += static_cast<char>('0' + (u & 7));
    } else {
      s += c;
    }
  }
  return s + "\"";
}

}  // namespace culift::codegen
