// The arithmetic of every operator and conversion, per type, with C++ semantics and the
// undefined behaviour C++ leaves open reported as an error.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "runtime.hpp"

namespace culift::interp::exec {

template <typename T> constexpr bool kSignedInt = std::is_integral_v<T> && std::is_signed_v<T>;
template <typename T> constexpr bool kUnsignedInt = std::is_integral_v<T> && !std::is_signed_v<T> &&
                                                    !std::is_same_v<T, bool>;
template <typename T> constexpr bool kInt = std::is_integral_v<T> && !std::is_same_v<T, bool>;

template <typename T> std::string text(T v) {
  Raw r = make(v);
  return describe(Value::of(v).type, r);
}

[[noreturn]] void failArith(const Expr& e, std::string what, std::string lhs, std::string rhs);

// The error paths build strings: kept out of line so the hot paths stay small and inline.
template <typename T>
[[noreturn, gnu::cold, gnu::noinline]] void failArithValues(const Expr& e, const char* what, T a, T b) {
  failArith(e, what, text(a), text(b));
}

// The result of a commutative + or * whose operands are both NaN: the first one, quieted, as
// x86 and ARM hardware (and native code at -O0) give it. Left to the compiler, the interpreter's
// own a + b may take its operands either way round, and the NaN's sign and payload would depend
// on register allocation (docs/numerical-contract.md, NaNs).
void noteNaNOperands(std::uint64_t aBits, std::uint64_t bBits);  // differentNaNsMet()
template <typename T> inline T firstNaN(T a, T b, T r) {
  if (r != r && a != a && b != b) [[unlikely]] {
    std::uint64_t x = 0, y = 0;
    std::memcpy(&x, &a, sizeof a);
    std::memcpy(&y, &b, sizeof b);
    noteNaNOperands(x, y);
    return a + a;
  }
  return r;
}

// A + - * on T. Unsigned wraps; signed overflow is undefined behaviour: an error.
template <BinaryOp Op, typename T> inline T arith(T a, T b, const Expr& e) {
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (Op == BinaryOp::Add) return firstNaN(a, b, a + b);
    else if constexpr (Op == BinaryOp::Sub) return a - b;
    else if constexpr (Op == BinaryOp::Mul) return firstNaN(a, b, a * b);
    else return a / b;
  } else if constexpr (kUnsignedInt<T>) {
    using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, T>;
    if constexpr (Op == BinaryOp::Add) return static_cast<T>(W(a) + W(b));
    else if constexpr (Op == BinaryOp::Sub) return static_cast<T>(W(a) - W(b));
    else if constexpr (Op == BinaryOp::Mul) return static_cast<T>(W(a) * W(b));
    else if constexpr (Op == BinaryOp::Div || Op == BinaryOp::Rem) {
      if (b == 0) [[unlikely]]
        failArithValues<T>(e, Op == BinaryOp::Div ? "integer division by zero" : "integer remainder by zero", a, b);
      return Op == BinaryOp::Div ? T(a / b) : T(a % b);
    }
  } else {
    T r;
    if constexpr (Op == BinaryOp::Add) {
      if (__builtin_add_overflow(a, b, &r)) [[unlikely]]
        failArithValues<T>(e, "signed integer overflow", a, b);
      return r;
    } else if constexpr (Op == BinaryOp::Sub) {
      if (__builtin_sub_overflow(a, b, &r)) [[unlikely]]
        failArithValues<T>(e, "signed integer overflow", a, b);
      return r;
    } else if constexpr (Op == BinaryOp::Mul) {
      if (__builtin_mul_overflow(a, b, &r)) [[unlikely]]
        failArithValues<T>(e, "signed integer overflow", a, b);
      return r;
    } else {
      if (b == 0) [[unlikely]]
        failArithValues<T>(e, Op == BinaryOp::Div ? "integer division by zero" : "integer remainder by zero", a, b);
      if (a == std::numeric_limits<T>::min() && b == T(-1)) [[unlikely]]
        failArithValues<T>(e,
                           Op == BinaryOp::Div ? "signed integer overflow in division"
                                               : "signed integer overflow in remainder",
                           a, b);
      return Op == BinaryOp::Div ? T(a / b) : T(a % b);
    }
  }
}

template <BinaryOp Op, typename T> inline T bitwise(T a, T b) {
  if constexpr (Op == BinaryOp::BitAnd) return static_cast<T>(a & b);
  else if constexpr (Op == BinaryOp::BitOr) return static_cast<T>(a | b);
  else return static_cast<T>(a ^ b);
}

template <BinaryOp Op, typename T> inline bool compare(T a, T b) {
  if constexpr (Op == BinaryOp::Lt) return a < b;
  else if constexpr (Op == BinaryOp::Gt) return a > b;
  else if constexpr (Op == BinaryOp::Le) return a <= b;
  else if constexpr (Op == BinaryOp::Ge) return a >= b;
  else if constexpr (Op == BinaryOp::Eq) return a == b;
  else return a != b;
}

// A shift count of any integer type, as a signed 128-bit-safe pair (negative flag, amount).
[[noreturn]] void failShift(const Expr& e, std::string lhs, std::string count, unsigned width);

template <typename T> [[noreturn, gnu::cold, gnu::noinline]] void failShiftValues(const Expr& e, T a, Raw count,
                                                                                  Scalar countType, unsigned width) {
  failShift(e, text(a), describe(countType, count), width);
}

template <BinaryOp Op, typename T> inline T shift(T a, Raw count, Scalar countType, const Expr& e) {
  unsigned width = sizeof(T) * 8;
  if constexpr (sizeof(T) < sizeof(int)) width = sizeof(int) * 8;  // only in hand-built trees
  bool negative = false;
  std::uint64_t n = 0;
  dispatch(countType, [&]<Scalar S>() {
    using C = Cpp<S>;
    if constexpr (kInt<C> || std::is_same_v<C, bool>) {
      C c = get<C>(count);
      if constexpr (kSignedInt<C>) negative = c < 0;
      n = static_cast<std::uint64_t>(c);
    }
  });
  if (negative || n >= width) [[unlikely]]
    failShiftValues<T>(e, a, count, countType, width);
  if constexpr (Op == BinaryOp::Shl) {
    // C++20: E1 << E2 is E1 * 2^E2 modulo 2^N, for signed types too.
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << n));
  } else {
    return static_cast<T>(a >> n);  // arithmetic for signed types (C++20)
  }
}

// Conversion From -> To as C++ does it; a floating value outside the integer's range (or NaN)
// is undefined behaviour: an error.
[[noreturn]] void failConvert(const Expr& e, std::string value, Scalar to);

template <typename From, typename To>
[[noreturn, gnu::cold, gnu::noinline]] void failConvertValue(const Expr& e, From v) {
  failConvert(e, text(v), Value::of(To{}).type);
}

template <typename From, typename To> inline To convert(From v, const Expr& e) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && kInt<To>) {
    // Valid iff trunc(v) is representable. Every bound below is exact in double.
    const double x = static_cast<double>(v);
    constexpr double hi = 2.0 * static_cast<double>(std::numeric_limits<To>::max() / 2 + 1);  // 2^bits
    bool ok;
    if constexpr (kUnsignedInt<To>) ok = x > -1.0 && x < hi;
    else if constexpr (sizeof(To) < 8) ok = x > static_cast<double>(std::numeric_limits<To>::min()) - 1.0 && x < hi;
    else ok = x >= static_cast<double>(std::numeric_limits<To>::min()) && x < hi;
    if (!ok) [[unlikely]]
      failConvertValue<From, To>(e, v);
    return static_cast<To>(v);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace culift::interp::exec
