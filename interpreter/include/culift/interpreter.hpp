// The interpreter: executes the typed AST on the CPU with exactly C++ semantics.
// It is the ground truth for cross-checks and the runtime's CPU backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
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
  template <typename T> static Value of(T v);  // Value::of(1.5f), Value::of<std::int8_t>(-3)
  template <typename T> T as() const;          // exact read of the stored type (C++ conversion)
  std::string toString() const;                // round-trip digits; "nan", "inf", "-inf"
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

// Deliberate bugs, for the tests of the differential oracle only (a test must show the oracle
// finds each). Every real use leaves Options::plantedBug at None.
enum class PlantedBug : unsigned {
  None = 0,
  FloatToIntRounds,             // float -> int conversion rounds to nearest instead of truncating
  SignedShiftRightLogical,      // >> on a negative signed value shifts in zeros
  UnsignedSubSaturates,         // unsigned a - b stops at 0 instead of wrapping around
  UnsignedNarrowSignExtends,    // unsigned char / short promoted to a wider type sign-extends
  RemainderTakesDivisorSign,    // signed a % b takes the sign of b
  NaNLessThanTrue,              // floating a < b computed as !(a >= b): true for NaN
  CompoundInTargetType,         // x op= y computed in x's type, not the promoted type
  SwitchNoFallThrough,          // a case label ends the statements of the case before it
  LoopBoundInclusive,           // a counted loop's k < n runs to n
  LogicalEager,                 // && and || evaluate both operands
  FloatMathInDouble,            // a float transcendental computed in double and rounded
  NegativeZeroNarrowsPositive,  // double -0.0 converted to float gives +0.0
  NaNCanonical,                 // floating + - * / giving a NaN gives the GPU's canonical +NaN, not the host's
};
inline constexpr unsigned kPlantedBugs = 13;

struct Options {
  std::uint64_t stepBudget = 1ull << 32;     // statements per call before it is an error
  unsigned threads = 0;                      // whole launches: 0 = all cores
  PlantedBug plantedBug = PlantedBug::None;  // tests of the differential oracle only
  // Checked launches: record, per element of every writable array, which output of the launch
  // wrote and read it, and throw an Error at the access where a second output writes an element
  // another one wrote or read, or reads one another one wrote (a data race on the GPU, where the
  // outputs run in no fixed order). std::atomic_ref updates are not recorded. Costs two 8-byte
  // words per element of each writable array and a check per access (docs/numerical-contract.md).
  bool checkConflicts = false;
};

// Extent of a whole launch: one number per axis (i, j, k); ElementWise uses extent[0].
struct Extent {
  std::int64_t n[3] = {1, 1, 1};
  unsigned rank = 1;
  // The outputs launched, [first, last) in row-major order (i slowest), clamped to the extent's;
  // the others are left as they are (a launch split over processes runs a part per process).
  std::uint64_t first = 0;
  std::uint64_t last = UINT64_MAX;
};

// Whether a `+` or `*` of two NaNs with different bits ran in calls (Program::call) made on this
// thread since the last reset.
// Its result is the first operand's NaN here, but which operand native code takes first is its
// compiler's choice (even at -O0), so after one the NaN bits of a result are not comparable:
// the differential tester compares NaN bits exactly only where none ran
// (docs/numerical-contract.md).
bool differentNaNsMet();
void resetDifferentNaNsMet();

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
  // functions returning a value; PerElementScalar arrays for element-wise kernels).
  // Spread over Options::threads cores. Throws Error (the first failing index).
  // A kernel whose plan reassociates its loop (Function::reassociatedSums: the warp-per-row and
  // split-row reductions) adds in those plans' one order (culift/ast/reassociation.hpp), as their
  // GPU entries do; `loopAsWritten` runs the loop in source order
  // instead, as the per-thread entries and `call` do.
  void launch(const Function& fn, const Extent& extent, std::span<const Arg> kernelArgs,
              bool loopAsWritten = false) const;

  ~Program();
  struct Impl;

 private:
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};


// ---- inline definitions of the templates above ---------------------------------------------

namespace detail {
// The Scalar of a C++ arithmetic type (long and long long both map to the 64-bit types).
template <typename T> constexpr Scalar scalarOf() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) return Scalar::Bool;
  else if constexpr (std::is_floating_point_v<U>) return sizeof(U) == 4 ? Scalar::F32 : Scalar::F64;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>)
    return sizeof(U) == 1 ? Scalar::I8 : sizeof(U) == 2 ? Scalar::I16 : sizeof(U) == 4 ? Scalar::I32 : Scalar::I64;
  else if constexpr (std::is_integral_v<U>)
    return sizeof(U) == 1 ? Scalar::U8 : sizeof(U) == 2 ? Scalar::U16 : sizeof(U) == 4 ? Scalar::U32 : Scalar::U64;
  else static_assert(sizeof(U) == 0, "not a culift scalar type");
}
}  // namespace detail

template <typename T> Value Value::of(T v) {
  static_assert(std::is_arithmetic_v<T> && sizeof(T) <= 8 && !std::is_same_v<T, long double>);
  Value r;
  r.type = detail::scalarOf<T>();
  if constexpr (std::is_same_v<T, bool>) r.b = v;
  else if constexpr (std::is_same_v<T, float>) r.f = v;
  else if constexpr (std::is_same_v<T, double>) r.d = v;
  else if constexpr (std::is_signed_v<T>) r.i = static_cast<std::int64_t>(v);
  else r.u = static_cast<std::uint64_t>(v);
  return r;
}

template <typename T> T Value::as() const {
  switch (type) {
    case Scalar::Bool: return static_cast<T>(b);
    case Scalar::F32: return static_cast<T>(f);
    case Scalar::F64: return static_cast<T>(d);
    case Scalar::I8:
    case Scalar::I16:
    case Scalar::I32:
    case Scalar::I64: return static_cast<T>(i);
    case Scalar::U8:
    case Scalar::U16:
    case Scalar::U32:
    case Scalar::U64: return static_cast<T>(u);
    case Scalar::Void: break;
  }
  return T{};
}

template <typename T> ArrayRef ArrayRef::of(std::span<T> s) {
  ArrayRef r;
  r.element = detail::scalarOf<T>();
  r.data = const_cast<std::remove_const_t<T>*>(s.data());
  r.size = s.size();
  r.writable = !std::is_const_v<T>;
  return r;
}

}  // namespace culift::interp
