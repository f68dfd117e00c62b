// Host launchers: native CPU entries of a module's kernels, compiled by the app's own compiler
// from the very functions the module was translated from (`culift emit --host-launchers`,
// `culift_add_kernels(... HOST_LAUNCHERS)`). The CPU backend runs a launch of such a kernel
// through its launcher, split over its thread pool, instead of compiling the kernel with the JIT:
// an app whose kernels all have launchers needs no JIT on a machine without a GPU
// (docs/runtime.md#host-launchers).
//
// A launcher has the compiled CPU backend's calling convention: outputs [first, last) of one
// launch in C order, the arguments one per kernel-signature parameter (an array's first element,
// or the address of a scalar's value in its own type), the launch's extent per axis.
//
// This header is what the generated launcher sources include: it includes the standard library
// only.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace culift {
struct Module;
struct Function;
}  // namespace culift

namespace culift::rt {

using HostEntry = std::uint64_t (*)(const void* const* params, const std::uint64_t* lengths, const std::int64_t* extent,
                                    std::uint64_t first, std::uint64_t last, std::uint32_t* site);
inline constexpr std::uint64_t kHostEntryDone = ~std::uint64_t{0};  // what an entry returns: no output failed

struct HostLauncher {
  const char* kernel;     // Function::name
  const char* signature;  // the kernel signature it was generated for (KernelSignature::toString())
  HostEntry entry;
};

// Attaches launchers to a module (the embedded module's accessor does, once). A launcher whose
// kernel the module lacks, or whose signature is not the kernel's, is never used; the CPU
// backend says so through EngineOptions::warn. Registering a module again replaces its list.
void registerHostLaunchers(const Module& module, std::span<const HostLauncher> launchers);
// The launcher of `fn` (a kernel of `module`) whose signature matches, or null.
const HostLauncher* findHostLauncher(const Module& module, const Function& fn, std::string_view* mismatch = nullptr);

// The pieces generated launchers are written with: each parameter of the native function, typed
// by the function's own pointer type F, taken from its kernel argument.
namespace host {
template <class F> struct Traits;
template <class R, class... P> struct Traits<R (*)(P...)> {
  using Result = R;
  template <unsigned k> using Param = std::remove_cvref_t<std::tuple_element_t<k, std::tuple<P...>>>;
};
template <class R, class... P> struct Traits<R (*)(P...) noexcept> : Traits<R (*)(P...)> {};

template <class F, unsigned k> using Param = typename Traits<F>::template Param<k>;

template <class F, unsigned k> Param<F, k> array(const void* p) {  // a pointer parameter: the buffer
  static_assert(std::is_pointer_v<Param<F, k>>, "an array parameter of a kernel is a pointer");
  return static_cast<Param<F, k>>(const_cast<void*>(p));
}
template <class F, unsigned k> Param<F, k> scalar(const void* p) {  // a uniform scalar: its value
  return *static_cast<const Param<F, k>*>(p);
}
template <class F, unsigned k>
const Param<F, k>* elements(const void* p) {  // an element-wise kernel's scalar: one per element
  return static_cast<const Param<F, k>*>(p);
}
template <class F, unsigned k>
Param<F, k> index(std::uint64_t i) {  // an index parameter: the output's index on its axis
  return static_cast<Param<F, k>>(i);
}
template <class F> typename Traits<F>::Result* result(const void* p) {  // the result array
  return static_cast<typename Traits<F>::Result*>(const_cast<void*>(p));
}
}  // namespace host

}  // namespace culift::rt
