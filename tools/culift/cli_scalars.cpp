#include "cli_scalars.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace culift::cli {
namespace {

// The shortest text that reads back as `d` ("1e+39", not "1.0000000000000001e+39").
std::string shortest(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
  char buf[64] = "";
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

std::string integerText(__int128 v) {
  // Its digits, most significant first (std::to_string has no 128-bit overload).
  unsigned __int128 m = v < 0 ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  } while (m != 0);
  return v < 0 ? "-" + digits : digits;
}

// The range of an integer type, in 128-bit arithmetic.
void integerRange(Scalar s, __int128& lo, __int128& hi) {
  const unsigned bits = byteSize(s) * 8;
  if (isSigned(s)) {
    hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
    lo = -hi - 1;
  } else {
    lo = 0;
    hi = (static_cast<__int128>(1) << bits) - 1;
  }
}

template <typename T> rt::ScalarValue floating(__int128 integer, bool isInteger, double real) {
  return rt::ScalarValue::of(isInteger ? static_cast<T>(integer) : static_cast<T>(real));
}

}  // namespace

std::optional<rt::ScalarValue> scalarFromJson(const llvm::json::Value& j, Scalar type, std::string& why) {
  const std::string typeName(spelling(type));
  // The value as read: an exact integer (true and false are 1 and 0) or a double.
  bool isInt = false;
  __int128 integer = 0;
  double real = 0;
  if (auto b = j.getAsBoolean()) {
    isInt = true;
    integer = *b ? 1 : 0;
  } else if (auto s = j.getAsString()) {
    if (*s == "nan") real = std::numeric_limits<double>::quiet_NaN();
    else if (*s == "-nan") real = -std::numeric_limits<double>::quiet_NaN();
    else if (*s == "inf" || *s == "+inf") real = std::numeric_limits<double>::infinity();
    else if (*s == "-inf") real = -std::numeric_limits<double>::infinity();
    else {
      why = "\"" + s->str() + "\" is not a number (the strings allowed are \"nan\", \"-nan\", \"inf\", \"-inf\")";
      return std::nullopt;
    }
  } else if (j.kind() == llvm::json::Value::Number) {
    real = *j.getAsNumber();
    // JSON has no infinity: a number read as one was beyond double's range (1e400).
    if (std::isinf(real)) {
      why = std::string("a number beyond the range of double (largest finite ") +
            shortest(std::numeric_limits<double>::max()) + ") is not a value of " + typeName;
      return std::nullopt;
    }
    // llvm::json gives integral numbers (also 3e9, 2.0) as exact integers; -0.0 stays a double.
    if (!(real == 0 && std::signbit(real))) {
      if (auto i = j.getAsInteger()) {
        isInt = true;
        integer = *i;
      } else if (auto u = j.getAsUINT64()) {
        isInt = true;
        integer = *u;
      } else if (real == std::trunc(real) && std::fabs(real) < 0x1p100) {
        isInt = true;  // integral beyond 64 bits (1e19, -1e19): exact in 128 bits
        integer = static_cast<__int128>(real);
      }
    }
  } else {
    why = "expected a number";
    return std::nullopt;
  }
  const std::string given = isInt ? integerText(integer) : shortest(real);

  if (type == Scalar::Bool) {
    if (!isInt || (integer != 0 && integer != 1)) {
      why = given + " is not a bool: give true, false, 0 or 1";
      return std::nullopt;
    }
    return rt::ScalarValue::of(integer == 1);
  }
  if (isInteger(type)) {
    __int128 lo = 0, hi = 0;
    integerRange(type, lo, hi);
    if (!isInt && std::isfinite(real) && real == std::trunc(real)) {
      why = given + " does not fit in " + typeName + " (" + integerText(lo) + " to " + integerText(hi) + ")";
      return std::nullopt;
    }
    if (!isInt) {
      why = given + " is not an integer (the parameter is " + typeName + ")";
      return std::nullopt;
    }
    if (integer < lo || integer > hi) {
      why = given + " does not fit in " + typeName + " (" + integerText(lo) + " to " + integerText(hi) + ")";
      return std::nullopt;
    }
    rt::ScalarValue v;
    v.type = type;
    if (isSigned(type)) v.i = static_cast<std::int64_t>(integer);
    else v.u = static_cast<std::uint64_t>(integer);
    return v;
  }
  // Floating: rounded to nearest, as C++ converts; a finite value that rounds to infinity is refused.
  const rt::ScalarValue v = type == Scalar::F32 ? floating<float>(integer, isInt, real)
                                                : floating<double>(integer, isInt, real);
  const double result = type == Scalar::F32 ? static_cast<double>(v.f) : v.d;
  if (std::isinf(result) && (isInt || std::isfinite(real))) {
    why = given + " is beyond the range of " + typeName + " (largest finite " +
          (type == Scalar::F32 ? std::string("3.40282347e+38") : shortest(std::numeric_limits<double>::max())) + ")";
    return std::nullopt;
  }
  return v;
}

}  // namespace culift::cli
