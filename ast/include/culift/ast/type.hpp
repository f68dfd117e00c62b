// The scalar types culift handles, and the shapes a value can take (scalar, pointer, local array).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace culift {

// X(Enum, C++ type, CUDA spelling, bytes, isInteger, isSigned, isFloat)
#define CULIFT_SCALAR_TYPES(X)                                       \
  X(Bool, bool, "bool", 1, false, false, false)                      \
  X(I8, std::int8_t, "signed char", 1, true, true, false)            \
  X(U8, std::uint8_t, "unsigned char", 1, true, false, false)        \
  X(I16, std::int16_t, "short", 2, true, true, false)                \
  X(U16, std::uint16_t, "unsigned short", 2, true, false, false)     \
  X(I32, std::int32_t, "int", 4, true, true, false)                  \
  X(U32, std::uint32_t, "unsigned int", 4, true, false, false)       \
  X(I64, std::int64_t, "long long", 8, true, true, false)            \
  X(U64, std::uint64_t, "unsigned long long", 8, true, false, false) \
  X(F32, float, "float", 4, false, true, true)                       \
  X(F64, double, "double", 8, false, true, true)

enum class Scalar : std::uint8_t {
  Void,
#define CULIFT_X(E, T, S, B, I, SG, F) E,
  CULIFT_SCALAR_TYPES(CULIFT_X)
#undef CULIFT_X
};

// Spelling used in emitted CUDA and pseudocode ("void", "int", "unsigned long long", ...).
std::string_view spelling(Scalar s);
unsigned byteSize(Scalar s);  // 0 for Void
bool isInteger(Scalar s);     // not bool
bool isSigned(Scalar s);      // signed integers and floating types
bool isFloating(Scalar s);
inline bool isArithmetic(Scalar s) { return s != Scalar::Void; }

enum class Shape : std::uint8_t {
  Value,    // a scalar value (or void for a return type)
  Pointer,  // a function parameter T* / const T*: an array the caller passes
  Array,    // a fixed-size local array T v[N]
};

struct Type {
  Scalar scalar = Scalar::Void;
  Shape shape = Shape::Value;
  bool constElements = false;  // const T* (an input array) or const T v[N]
  std::uint64_t extent = 0;    // Array: number of elements

  static Type value(Scalar s) { return Type{s, Shape::Value, false, 0}; }
  static Type pointer(Scalar s, bool isConst) { return Type{s, Shape::Pointer, isConst, 0}; }
  static Type array(Scalar s, std::uint64_t n, bool isConst = false) { return Type{s, Shape::Array, isConst, n}; }

  bool isValue() const { return shape == Shape::Value; }
  bool isPointer() const { return shape == Shape::Pointer; }
  bool isArray() const { return shape == Shape::Array; }
  bool isVoid() const { return shape == Shape::Value && scalar == Scalar::Void; }

  friend bool operator==(const Type&, const Type&) = default;
};

// "float", "const float*", "float[6]".
std::string toString(const Type& t);

}  // namespace culift
