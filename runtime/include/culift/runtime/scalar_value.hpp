// C++ types to culift scalar types, and one scalar launch argument of any of them.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "culift/ast/type.hpp"

namespace culift::rt {

// The culift scalar type of a C++ arithmetic type: bool, the integers by width and signedness
// (int → I32, long and long long → I64 on LP64), float, double.
template <typename T> constexpr Scalar scalarOf() {
  using U = std::remove_cv_t<T>;
  static_assert(std::is_arithmetic_v<U> && !std::is_same_v<U, long double>,
                "culift handles bool, integers, float and double");
  if constexpr (std::is_same_v<U, bool>) return Scalar::Bool;
  else if constexpr (std::is_same_v<U, float>) return Scalar::F32;
  else if constexpr (std::is_same_v<U, double>) return Scalar::F64;
  else if constexpr (sizeof(U) == 1) return std::is_signed_v<U> ? Scalar::I8 : Scalar::U8;
  else if constexpr (sizeof(U) == 2) return std::is_signed_v<U> ? Scalar::I16 : Scalar::U16;
  else if constexpr (sizeof(U) == 4) return std::is_signed_v<U> ? Scalar::I32 : Scalar::U32;
  else return std::is_signed_v<U> ? Scalar::I64 : Scalar::U64;
}

// One scalar, stored in the field of its type (integers widened to 64 bits).
struct ScalarValue {
  Scalar type = Scalar::Void;
  union {
    bool b;
    std::int64_t i;
    std::uint64_t u;
    float f;
    double d;
  };
  ScalarValue() : u(0) {}

  template <typename T> static ScalarValue of(T v) {
    ScalarValue s;
    s.type = scalarOf<T>();
    if constexpr (std::is_same_v<T, bool>) s.b = v;
    else if constexpr (std::is_same_v<T, float>) s.f = v;
    else if constexpr (std::is_same_v<T, double>) s.d = v;
    else if constexpr (std::is_signed_v<T>) s.i = static_cast<std::int64_t>(v);
    else s.u = static_cast<std::uint64_t>(v);
    return s;
  }

  // The value as the kernel parameter of type `target` receives it, when that conversion keeps
  // the value exactly (see arguments.hpp for the rule). False leaves `out` untouched.
  bool convertExactly(Scalar target, ScalarValue& out) const;
  // The bytes of the value in its own type's representation (little-endian host layout).
  void store(void* dst) const;
  std::string toString() const;  // "3", "-1", "2.5f", "0.1", "true"
};

}  // namespace culift::rt
