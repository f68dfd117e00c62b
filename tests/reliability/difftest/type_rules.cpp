#include "type_rules.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace culift::rel {

Scalar commonType(Scalar a, Scalar b) {
  a = promote(a);
  b = promote(b);
  if (a == Scalar::F64 || b == Scalar::F64) return Scalar::F64;
  if (a == Scalar::F32 || b == Scalar::F32) return Scalar::F32;
  if (a == b) return a;
  const unsigned wa = bitWidth(a), wb = bitWidth(b);
  if (wa != wb) return wa > wb ? a : b;  // LP64: the wider one represents every value of the other
  return isSignedInt(a) ? b : a;         // same width: the unsigned one
}

std::uint64_t bitsOfInt(Scalar type, std::int64_t v) {
  const unsigned w = bitWidth(type);
  const std::uint64_t u = static_cast<std::uint64_t>(v);
  return w >= 64 ? u : (u & ((std::uint64_t{1} << w) - 1));
}

std::int64_t intOfBits(Scalar type, std::uint64_t bits) {
  const unsigned w = bitWidth(type);
  if (w >= 64) return static_cast<std::int64_t>(bits);
  bits &= (std::uint64_t{1} << w) - 1;
  if (isSignedInt(type) && (bits >> (w - 1)) & 1)
    return static_cast<std::int64_t>(bits | ~((std::uint64_t{1} << w) - 1));
  return static_cast<std::int64_t>(bits);
}

std::uint64_t bitsOfFloat(Scalar type, double v) {
  if (type == Scalar::F32) {
    const float f = static_cast<float>(v);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  return b;
}

std::string minLiteral(Scalar promoted) {
  return promoted == Scalar::I64 ? "(-9223372036854775807LL - 1)" : "(-2147483647 - 1)";
}

namespace {
// Shortest decimal that reads back exactly, else a hexadecimal floating literal.
template <typename F> std::string floatText(F v, const char* suffix) {
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(v));
    const F back = sizeof(F) == 4 ? static_cast<F>(std::strtof(buf, nullptr))
                                  : static_cast<F>(std::strtod(buf, nullptr));
    if (back == v && digits <= 9) {
      std::string s = buf;
      if (s.find_first_of(".en") == std::string::npos) s += ".0";
      return s + suffix;
    }
  }
  std::snprintf(buf, sizeof buf, "%a", static_cast<double>(v));
  return std::string(buf) + suffix;
}
}  // namespace

std::string literal(Scalar type, std::uint64_t bits) {
  switch (type) {
    case Scalar::Bool: return bits ? "true" : "false";
    case Scalar::F32: {
      float f;
      const std::uint32_t b = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b, 4);
      const std::string t = floatText(std::fabs(f), "f");
      return std::signbit(f) ? "(-" + t + ")" : t;
    }
    case Scalar::F64: {
      double d;
      std::memcpy(&d, &bits, 8);
      const std::string t = floatText(std::fabs(d), "");
      return std::signbit(d) ? "(-" + t + ")" : t;
    }
    case Scalar::U32: return std::to_string(static_cast<std::uint32_t>(bits)) + "u";
    case Scalar::U64: return std::to_string(bits) + "ULL";
    case Scalar::I32: {
      const std::int64_t v = intOfBits(type, bits);
      if (v == -2147483648LL) return minLiteral(Scalar::I32);
      return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
    }
    case Scalar::I64: {
      const std::int64_t v = intOfBits(type, bits);
      if (v == INT64_MIN) return minLiteral(Scalar::I64);
      return v < 0 ? "(" + std::to_string(v) + "LL)" : std::to_string(v) + "LL";
    }
    default: {  // narrow integers: a converted int literal
      const std::int64_t v = intOfBits(type, bits);
      const char* name = type == Scalar::I8    ? "signed char"
                         : type == Scalar::U8  ? "unsigned char"
                         : type == Scalar::I16 ? "short"
                                               : "unsigned short";
      return "((" + std::string(name) + ")" + (v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v)) + ")";
    }
  }
}

}  // namespace culift::rel
