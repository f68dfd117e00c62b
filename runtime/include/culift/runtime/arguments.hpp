// Launch arguments and their check against a kernel's signature. Every check runs before the
// driver (or the interpreter) sees anything, so a wrong argument is a clear ArgumentError
// naming the kernel and the parameter, never undefined behaviour.
//
// The arguments a launch takes are the kernel signature's parameters minus the Extent ones
// (the plan supplies those): the user's parameters without the index parameters, then the
// `out` array for functions returning a value. Rules:
//   - arrays (input, output, element input, out) take a buffer of exactly the element type;
//     a written array (output, out) must not be a const buffer;
//   - an array of structs (KernelParam::record) takes a buffer of its scalar type (the records'
//     memory as the kernel reads it) or a buffer of records of the same size and alignment
//     (DeviceBuffer<Particle>); a buffer of records fits no other parameter;
//   - `out` must hold at least plan.elements() values, an element input at least n;
//   - a buffer written by the kernel may not be passed for another parameter as well (the
//     emitted kernel declares its arrays __restrict__);
//   - scalars: floating parameters take exactly their type (a float for float, a double for
//     double: no silent rounding); bool takes bool; an integer parameter takes any integer
//     argument whose value it represents exactly (5 for a long long is fine, -1 for an
//     unsigned is an error);
//   - extents must be >= 0, and n - 1 must fit the user's index type (an int i takes at most
//     2^31 rows).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/runtime/plan.hpp"
#include "culift/runtime/scalar_value.hpp"

namespace culift::rt {

class Engine;
class Buffer;

// A buffer as a launch sees it: `count` scalars of `element`, or `count` records of
// `recordSize` bytes (element Void) for an array-of-structs parameter.
struct BufferRef {
  const Engine* engine = nullptr;  // owner (checked against the launching engine)
  std::uint64_t address = 0;
  Scalar element = Scalar::Void;
  std::size_t count = 0;
  bool readOnly = false;          // passed as const: may only feed input arrays
  std::uint32_t recordSize = 0;   // bytes per record; 0 for scalars
  std::uint32_t recordAlign = 0;  // the records' alignment; 0 for scalars
  friend bool operator==(const BufferRef&, const BufferRef&) = default;
};

struct LaunchArg {
  enum class Kind : std::uint8_t { Buffer, Scalar } kind = Kind::Scalar;
  BufferRef buffer;
  ScalarValue scalar;

  static LaunchArg of(const Buffer& b);  // read-only
  static LaunchArg of(Buffer& b);
  static LaunchArg of(const BufferRef& b) {
    LaunchArg a;
    a.kind = Kind::Buffer;
    a.buffer = b;
    return a;
  }
  template <typename T>
    requires std::is_arithmetic_v<T>
  static LaunchArg of(T v) {
    LaunchArg a;
    a.kind = Kind::Scalar;
    a.scalar = ScalarValue::of(v);
    return a;
  }
  static LaunchArg of(const ScalarValue& v) {
    LaunchArg a;
    a.kind = Kind::Scalar;
    a.scalar = v;
    return a;
  }
  std::string describe() const;  // "a buffer of 1024 float", "a buffer of 8 28-byte records", "int 5"
};

// One kernel parameter with its checked value, in signature order (extents included).
struct ResolvedArg {
  const KernelParam* param = nullptr;
  bool isBuffer = false;
  BufferRef buffer;   // arrays; an array of structs as its records' scalars (the kernel's view)
  ScalarValue value;  // scalars (converted to the parameter's type) and extents (I64)
  // An entry's argument passed by its bytes (a tensor map), where set: the launch's caller keeps
  // them until the launch call returns.
  const void* bytes = nullptr;
};

// Checks `args` against `fn`'s kernel signature and `plan`, and resolves every parameter.
// `engine` (may be null) is the engine the launch runs on. Throws ArgumentError.
std::vector<ResolvedArg> resolveLaunchArguments(const Function& fn, const LaunchPlan& plan,
                                                std::span<const LaunchArg> args, const Engine* engine);

// The number of arguments a launch of `fn` takes (the signature without the extents).
std::size_t launchArgumentCount(const Function& fn);
// The parameters those arguments go to, in order (the signature without the extents).
std::vector<const KernelParam*> argumentParams(const Function& fn);

}  // namespace culift::rt
