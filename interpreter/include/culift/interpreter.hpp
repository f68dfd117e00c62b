// The interpreter: executes the typed AST on the CPU with exactly C++ semantics.
// It is the ground truth for cross-checks and the runtime's CPU backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "culift/ast/module.hpp"

namespace culift::interp {

// One scalar value of any supported type, stored in the field of its type.
struct Value {
  Scalar type = Scalar::Void;
  union {
    bool b;
    std::int64_t i;   // every signed integer type, sign-extended
    std::uint64_t u;  // every unsigned integer type, zero-extended
    float f;
    double d;
  };
  Value() : u(0) {}
  template <typename T> static Value of(T v);      // Value::of(1.5f), Value::of<std::int8_t>(-3)
  template <typename T> T as() const;              // exact read of the stored type (C++ conversion)
  std::string toString() const;                    // round-trip digits; "nan", "inf", "-inf"
};

// An array argument: host memory the caller owns, with its length (bounds are checked).
struct ArrayRef {
  Scalar element = Scalar::Void;
  void* data = nullptr;
  std::size_t size = 0;  // elements
  bool writable = false;
  template <typename T> static ArrayRef of(std::span<T> s);  // const T → read-only
};

using Arg = std::variant<Value, ArrayRef>;

// An interpreter error (out-of-range index, division by zero, uninitialized read, bad shift,
// step budget exceeded, wrong arguments): carries the diagnostic with the source location.
class Error : public std::runtime_error {
 public:
  explicit Error(Diagnostic d);
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

struct Options {
  std::uint64_t stepBudget = 1ull << 32;  // statements per call before it is an error
  unsigned threads = 0;                   // whole launches: 0 = all cores
};

// Extent of a whole launch: one number per axis (i, j, k); ElementWise uses extent[0].
struct Extent {
  std::int64_t n[3] = {1, 1, 1};
  unsigned rank = 1;
};

// A module compiled for fast interpretation (names resolved to slots ahead of time).
class Program {
 public:
  static std::shared_ptr<const Program> compile(std::shared_ptr<const Module> module, Options options = {});

  const Module& module() const;

  // One call of a lifted function with the user's parameters (arrays as ArrayRef).
  // Returns the result (Scalar::Void type for void functions). Throws Error.
  Value call(const Function& fn, std::span<const Arg> args) const;

  // A whole launch of a kernel over `extent`, exactly as the GPU kernel would run it.
  // `kernelArgs` follow fn.signature.params minus the Extent parameters (Out included for
  // functions returning a value; ElementInput arrays for element-wise kernels).
  // Spread over Options::threads cores. Throws Error (the first failing index).
  void launch(const Function& fn, const Extent& extent, std::span<const Arg> kernelArgs) const;

  ~Program();
  struct Impl;

 private:
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace culift::interp
