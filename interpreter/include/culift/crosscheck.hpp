// Cross-check: run a lifted function in the interpreter and natively on the same arguments,
// and compare the result and every writable array bit for bit.
//
//   auto r = culift::crossCheck(*program, *module->find("RowSum"), &RowSum, x, 8, 2);
//   if (!r.equal) std::puts(r.summary().c_str());
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "culift/interpreter.hpp"
#include "culift/sample_args.hpp"

namespace culift {

// Distance in units in the last place between two floating values (0 when equal, also for
// +0/-0; NaN against anything but the same NaN: UINT64_MAX).
std::uint64_t ulpDistance(float a, float b);
std::uint64_t ulpDistance(double a, double b);

struct Mismatch {
  std::string where;        // "result", "y[3]"
  std::string interpreted;  // values, round-trip digits
  std::string native;
  double absDiff = 0;
  double relDiff = 0;
  std::uint64_t ulps = 0;  // floating values only
};

struct CrossCheckResult {
  bool equal = true;
  interp::Value interpreted;
  interp::Value native;
  std::vector<Mismatch> mismatches;  // the first few
  std::size_t mismatchCount = 0;
  double maxAbsDiff = 0;
  double maxRelDiff = 0;
  std::uint64_t maxUlps = 0;
  std::string error;  // the interpreter's error, when it threw (equal is then false)

  // "RowSum: equal (result 3.5)" or a list of the differences with their distances.
  std::string summary() const;
  std::string function;
};

namespace detail {
// Compares one value of `type` at `a` (interpreted) and `b` (native).
void compareValues(CrossCheckResult& r, const std::string& where, Scalar type, const void* a, const void* b);

template <typename T> using Pointee = std::remove_cv_t<std::remove_pointer_t<T>>;

// The argument for parameter type P built from a user value (scalar, span, vector, pointer+size
// is not accepted: arrays need their length).
template <typename P, typename A> interp::Arg toArg(A&& a) {
  using D = std::remove_cvref_t<A>;
  if constexpr (std::is_same_v<D, interp::Arg> || std::is_same_v<D, interp::Value> ||
                std::is_same_v<D, interp::ArrayRef>) {
    return interp::Arg(a);
  } else if constexpr (std::is_pointer_v<P>) {
    using E = Pointee<P>;
    if constexpr (requires {
                    a.data();
                    a.size();
                  }) {
      using Elem = std::remove_pointer_t<decltype(a.data())>;
      static_assert(std::is_same_v<std::remove_cv_t<Elem>, E>, "array argument of another element type");
      return interp::ArrayRef::of(std::span<Elem>(a.data(), a.size()));
    } else {
      static_assert(sizeof(A) == 0, "pass arrays as std::vector or std::span so their length is known");
    }
  } else {
    return interp::Value::of(static_cast<P>(a));
  }
}

template <typename T> T nativeScalar(const interp::Arg& a) { return std::get<interp::Value>(a).as<T>(); }

void finish(CrossCheckResult& r, const Function& fn);
}  // namespace detail

// Runs `fn` in the interpreter and `native` on copies of `args` (the caller's arrays are left
// as they are), then compares results and writable arrays.
template <typename R, typename... P> CrossCheckResult crossCheck(const interp::Program& program, const Function& fn,
                                                                 R (*native)(P...), std::span<const interp::Arg> args) {
  CrossCheckResult r;
  r.function = fn.name;
  if (args.size() != sizeof...(P)) {
    r.equal = false;
    r.error = "the native function takes " + std::to_string(sizeof...(P)) + " arguments, got " +
              std::to_string(args.size());
    detail::finish(r, fn);
    return r;
  }
  // Two private copies of every array: one for each side.
  std::vector<std::vector<std::byte>> mine(args.size()), theirs(args.size());
  std::vector<interp::Arg> interpArgs(args.begin(), args.end());
  for (std::size_t p = 0; p < args.size(); ++p) {
    if (const auto* a = std::get_if<interp::ArrayRef>(&args[p])) {
      const std::size_t bytes = a->size * byteSize(a->element);
      mine[p].resize(bytes);
      theirs[p].resize(bytes);
      if (bytes) {
        std::memcpy(mine[p].data(), a->data, bytes);
        std::memcpy(theirs[p].data(), a->data, bytes);
      }
      interp::ArrayRef copy = *a;
      copy.data = mine[p].data();
      interpArgs[p] = copy;
    }
  }
  try {
    r.interpreted = program.call(fn, interpArgs);
  } catch (const interp::Error& e) {
    r.equal = false;
    r.error = e.diagnostic().format();
    detail::finish(r, fn);
    return r;
  }
  auto call = [&]<std::size_t... K>(std::index_sequence<K...>) -> R {
    return native([&]() -> P {
      if constexpr (std::is_pointer_v<P>) return reinterpret_cast<P>(theirs[K].data());
      else return detail::nativeScalar<P>(args[K]);
    }()...);
  };
  if constexpr (std::is_void_v<R>) {
    call(std::index_sequence_for<P...>{});
  } else {
    R v = call(std::index_sequence_for<P...>{});
    r.native = interp::Value::of(v);
    detail::compareValues(r, "result", r.native.type, &r.interpreted.b, &r.native.b);
  }
  for (std::size_t p = 0; p < args.size(); ++p) {
    const auto* a = std::get_if<interp::ArrayRef>(&args[p]);
    if (!a || !a->writable) continue;
    const unsigned size = byteSize(a->element);
    const std::string name = p < fn.numParams ? fn.param(static_cast<unsigned>(p)).name : "arg" + std::to_string(p);
    for (std::size_t k = 0; k < a->size; ++k)
      detail::compareValues(r, name + "[" + std::to_string(k) + "]", a->element, mine[p].data() + k * size,
                            theirs[p].data() + k * size);
  }
  detail::finish(r, fn);
  return r;
}

template <typename R, typename... P> CrossCheckResult crossCheck(const interp::Program& program, const Function& fn,
                                                                 R (*native)(P...), const SampleArgs& args) {
  return crossCheck(program, fn, native, std::span<const interp::Arg>(args.args));
}

// Arguments as C++ values: scalars are converted to the native parameter types, arrays are
// std::vector or std::span.
template <typename R, typename... P, typename... A>
  requires(sizeof...(A) == sizeof...(P) && sizeof...(P) > 0 &&
           !(sizeof...(A) == 1 && (std::is_same_v<std::remove_cvref_t<A>, SampleArgs> && ...)))
CrossCheckResult crossCheck(const interp::Program& program, const Function& fn, R (*native)(P...), A&&... args) {
  std::vector<interp::Arg> list{detail::toArg<P>(std::forward<A>(args))...};
  return crossCheck(program, fn, native, std::span<const interp::Arg>(list));
}

}  // namespace culift
