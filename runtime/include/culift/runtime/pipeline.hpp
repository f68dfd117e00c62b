// A fixed sequence of kernel launches, recorded once and run many times:
//   Pipeline p(*engine);
//   p.add(mean, LaunchPlanner::for1D(rows), x, cols, mu).add(normalize, LaunchPlanner::for2D(rows, cols), x, mu, cols,
//   y); for (...) p.run(*engine);   // on the GPU: one graph launch from the third run on
// Each add() takes what Kernel::launch takes and checks it then. On a GPU engine the pipeline has
// its own stream: the first run launches one by one there (the entries' lookups and the split-row
// scratch happen then), the second captures the launches into a CUDA graph, later runs replay it.
// Two adjacent launches of kernels that reduce the same rows — a row sum and a row sum of squares
// of one array — run as one launch of their fused kernel (docs/runtime.md#pipelines), which reads
// each row once and gives each output its own kernel's bits.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "culift/runtime/arguments.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/kernel.hpp"
#include "culift/runtime/plan.hpp"

namespace culift::rt {

// Buffers are referenced, not copied: a buffer passed to add() must outlive the pipeline and keep
// its memory (not be destroyed or assigned over), and each run reads and writes what it holds then.
// Scalars are copied at add(). A pipeline is not for run() from two threads at once.
struct PipelineOptions {
  // Run two adjacent launches as one where their module has a fused kernel for the pair, both
  // launches have the same plan and the same arguments but their results, and the fused kernel
  // takes those arguments (its results in distinct buffers that alias no input).
  bool fuse = true;
};

class Pipeline {
 public:
  explicit Pipeline(Engine& engine, const PipelineOptions& options = {});
  Pipeline(Pipeline&& other) noexcept;
  Pipeline& operator=(Pipeline&& other) noexcept;
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  ~Pipeline();  // waits for the pipeline's work on the device; never throws

  // Appends a launch of `kernel` over `plan`: the arguments of Kernel::launch, checked now. A wrong
  // one throws ArgumentError naming the launch's position (1 for the first) and the kernel, and
  // leaves the pipeline as it was. A graph captured before is dropped: the next run is eager.
  template <typename... Args> Pipeline& add(const Kernel& kernel, const LaunchPlan& plan, Args&&... args) {
    const std::array<LaunchArg, sizeof...(Args)> erased{Kernel::toLaunchArg(std::forward<Args>(args))...};
    return addArgs(kernel, plan, std::span<const LaunchArg>(erased.data(), erased.size()));
  }
  Pipeline& addArgs(const Kernel& kernel, const LaunchPlan& plan, std::span<const LaunchArg> args);

  // Runs every launch in order, asynchronously on the GPU and ordered on `target` as launches on
  // it would be: after the work submitted to it before, before the work submitted after. The CPU
  // backend runs them as Kernel::launch does.
  void run(const LaunchTarget& target);

  std::size_t size() const;            // launches added
  std::size_t launchesPerRun() const;  // launches a run makes: size() less one per fused pair
  // The fused kernels a run launches, one per pair of added launches it runs as one, in order.
  std::vector<std::string> fusedKernels() const;
  Engine& engine() const;
  // Whether runs replay a CUDA graph: false before the second run, on the CPU backend, and where
  // the capture failed or the driver has no graphs (the runs then launch one by one).
  bool captured() const;
  // Why no graph was captured, once a capture was tried and failed ("the CUDA driver lacks
  // cuGraphInstantiateWithFlags", "cuStreamEndCapture failed: ..."); empty otherwise.
  const std::string& whyNotCaptured() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace culift::rt
