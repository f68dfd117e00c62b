// A kernel of a module loaded on an engine, and its typed launch:
//   kernel.launch(engine, LaunchPlanner::for1D(rows), x, cols, sums);
// checks every argument against the kernel's signature (arguments.hpp) before anything runs.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/runtime/arguments.hpp"
#include "culift/runtime/buffer.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/plan.hpp"

namespace culift::rt {

// The plan for a kernel's 32-bit-index entry (Function::kernelName), or nothing when the
// 64-bit entry must run: some loop index could pass INT32_MAX (an extent plus one whole grid's
// stride, along any axis, or the flat index of `out`), or an array of a vectorized element-wise
// kernel is not aligned to its vector. The grid shrinks on x by the indices each thread takes
// there, so no block starts past the end. Kernel::launch uses it; exposed for tests.
std::optional<LaunchPlan> narrowIndexPlan(const Function& fn, const LaunchPlan& plan,
                                          std::span<const ResolvedArg> args);

// The entry of the kernel's loop plan a launch over `plan` runs (an index into
// fn.planEntries) and its launch shape, or nothing when a per-thread entry runs: the launch asks
// for one (plan.perThread or plan.wideIndices), the function has no plan entry, an index could
// pass 2^31 - 1, a square-only entry meets a launch that is not square, or a grid dimension
// would pass the device's limit; an entry's grid follows from its BlockMapping alone. Of the tile
// sizes of one mapping the largest that still gives nine in ten
// multiprocessors a block is taken. Kernel::launch uses it; exposed for tests and `culift launch`.
struct PlanChoice {
  std::size_t entry = 0;
  LaunchPlan plan;
};
// `rowLength`, where the launch's arguments give it (the bound of the kernel's loop), lets the
// split-row entry decline rows too short to share among blocks.
std::optional<PlanChoice> choosePlanEntry(const Function& fn, const LaunchPlan& plan, const DeviceInfo& device,
                                          std::optional<std::int64_t> rowLength = std::nullopt);
// The choices a launch over `plan` could take with the same bits, choosePlanEntry's first: where
// its entry's plan computes every output in the per-thread order (not a reassociating or tensor-core
// plan) and the launch is whole, every entry of the same block mapping the device takes, each with
// its grid, and a 3-D stencil's windows entries also in slabs of 4, 8, 16 and 32 planes and of one
// wave (distinct grids only). One choice, or none, where nothing is left to measure. Kernel::launch
// times them where the engine measures entry choices (EngineOptions::tuneEntries); exposed for tests.
std::vector<PlanChoice> planCandidates(const Function& fn, const LaunchPlan& plan, const DeviceInfo& device,
                                       std::optional<std::int64_t> rowLength = std::nullopt);

// What a kernel's latest launch ran: `choice`, the plan entry and its launch shape, or nothing
// where it ran per thread; `measured` where the choice came from the table of measured choices
// (timed by this launch or an earlier one).
struct EntryLaunch {
  LaunchPlan plan;  // the launch's plan, as given
  std::optional<PlanChoice> choice;
  bool measured = false;
};

// The rows (indices of axis 0) [first, last) of a part of a launch (LaunchPlan::partFirst,
// partLast) made of whole rows; nothing for a part that cuts a row. A part of whole rows runs an
// entry whose mapping takes parts (takesParts) where choosePlanEntry finds one.
std::optional<std::pair<std::int64_t, std::int64_t>> partRows(const LaunchPlan& plan);

class Kernel {
 public:
  const Function& function() const { return *function_; }
  const std::string& name() const { return function_->name; }
  IndexMode mode() const { return function_->mode; }
  unsigned rank() const { return culift::rank(function_->mode); }
  Engine& engine() const { return *engine_; }
  const std::shared_ptr<const Module>& module() const { return module_; }

  // Launches over `plan` with the user's arguments (buffers and scalars, in the order of
  // launchArgumentCount()). Asynchronous on the GPU: synchronize the engine or stream.
  // On the GPU an entry of the kernel's loop plan runs where choosePlanEntry allows (the same
  // results bit for bit); otherwise the 32-bit-index entry whenever every loop index of the
  // launch fits in an int (and, for vectorized element-wise kernels, every array is aligned to a
  // vector); the 64-bit entry otherwise, or when plan.wideIndices asks for it.
  template <typename... Args> void launch(const LaunchTarget& target, const LaunchPlan& plan, Args&&... args) const {
    const std::array<LaunchArg, sizeof...(Args)> erased{toLaunchArg(std::forward<Args>(args))...};
    launchArgs(target, plan, std::span<const LaunchArg>(erased.data(), erased.size()));
  }
  void launchArgs(const LaunchTarget& target, const LaunchPlan& plan, std::span<const LaunchArg> args) const;

  // What the latest launch of this kernel (or a copy of it) on the GPU ran; nothing before the
  // first and on the CPU backend.
  std::optional<EntryLaunch> lastLaunch() const;

  // A plan covering n_i x n_j x n_k (as many axes as the kernel has) with the block size the
  // occupancy calculator suggests for this kernel on this device.
  LaunchPlan plan(std::int64_t ni, std::int64_t nj = 1, std::int64_t nk = 1) const;
  unsigned suggestedBlockSize() const;

 private:
  friend class Engine;
  friend class Pipeline;  // its add() takes the arguments launch() takes
  // The other entries (the 64-bit-index one, the plan entries) are looked up on their first
  // launch: under the driver's lazy loading a lookup loads the entry's code, tens of
  // microseconds each, which a start-up should pay only for the entries it launches.
  struct Entries;
  Kernel(std::shared_ptr<Engine> engine, std::shared_ptr<const Module> module, const Function* function, void* handle);
  // The entry `name`'s handle (slot: 0 the 64-bit-index entry, 1 + k plan entry k, 1 + n + k its
  // edge kernel of n entries, the last the part wrapper); `unit`: the kernel whose guard holds it
  // where not its own (an edge kernel's entry), which an engine compiling kernel by kernel compiles.
  void* entry(std::size_t slot, const std::string& name, const std::string& unit = {}) const;
  // Launches a plan entry (its extra parameters appended to `resolved`) and its edge kernel.
  void launchEntry(const PlanChoice& choice, const LaunchPlan& plan, std::vector<ResolvedArg> resolved,
                   void* stream) const;
  // The table's choice among `candidates` for this launch, timed now where the table has none
  // (`measured`: the choice is the table's); the first where it cannot be measured.
  // `integers`: the launch's integer scalar arguments.
  PlanChoice tunedChoice(std::span<const PlanChoice> candidates, const LaunchPlan& plan,
                         const std::vector<ResolvedArg>& resolved, std::span<const std::int64_t> integers, void* stream,
                         bool* measured) const;

  template <typename A> static LaunchArg toLaunchArg(A&& a) {
    using D = std::remove_cvref_t<A>;
    if constexpr (std::is_base_of_v<Buffer, D>) {
      if constexpr (std::is_const_v<std::remove_reference_t<A>>) return LaunchArg::of(static_cast<const Buffer&>(a));
      else return LaunchArg::of(static_cast<Buffer&>(a));
    } else if constexpr (std::is_same_v<D, LaunchArg>) {
      return a;
    } else if constexpr (std::is_same_v<D, ScalarValue> || std::is_same_v<D, BufferRef>) {
      return LaunchArg::of(a);
    } else {
      static_assert(std::is_arithmetic_v<D>, "a launch argument is a buffer or an arithmetic scalar");
      return LaunchArg::of(static_cast<D>(a));
    }
  }

  std::shared_ptr<Engine> engine_;
  std::shared_ptr<const Module> module_;
  const Function* function_;
  void* handle_;  // CUfunction of the 32-bit-index entry on the GPU; the CPU backend's program
  // The GPU's other entries, shared by copies of this Kernel; null on the CPU backend, where
  // handle_ runs every launch.
  std::shared_ptr<Entries> entries_;
};

}  // namespace culift::rt
