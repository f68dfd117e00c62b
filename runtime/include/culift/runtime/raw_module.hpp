// Hand-written CUDA C on an engine's device, beside the lifted kernels: compiled by the same
// NVRTC, with the engine's options and through its compile cache, loaded into the same context.
// Benchmarks use it to run expert reference kernels side by side with generated ones:
//
//   RawModule refs(*engine, source, "reference_kernels.cu");
//   std::uint64_t in = x.address(), out = y.address(); long long n = ...;
//   void* args[] = {&in, &out, &n};
//   refs.launch("ref_copy", grid, block, 0, args);
//
// Arguments are not checked (the kernel's parameter list is the caller's business, as with
// cuLaunchKernel). GPU backend only: on the CPU backend the constructor throws Error.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "culift/runtime/engine.hpp"
#include "culift/runtime/plan.hpp"

namespace culift::rt {

class RawModule {
 public:
  // Compiles `source` (or finds it in the engine's cache) and loads it. `extraOptions` follow the
  // engine's own (math mode, -lineinfo) and are part of the cache key. Throws Error on the CPU
  // backend and CompileError (with NVRTC's log) when the source does not compile.
  RawModule(Engine& engine, std::string source, std::string programName = "raw_module.cu",
            std::vector<std::string> extraOptions = {});
  RawModule(RawModule&& other) noexcept;
  RawModule& operator=(RawModule&& other) noexcept;
  RawModule(const RawModule&) = delete;
  RawModule& operator=(const RawModule&) = delete;
  ~RawModule();

  // The NVRTC options an engine with `options` compiles with, then `extra` (no -arch option).
  static std::vector<std::string> compileOptions(const EngineOptions& options,
                                                 const std::vector<std::string>& extra = {});

  // Launches the `extern "C"` kernel `kernel`; `args` points at one value per parameter.
  // Asynchronous; `stream` null: the default stream. Throws Error for an unknown kernel name and
  // CudaError when the driver refuses the launch.
  void launch(std::string_view kernel, Dim3 grid, Dim3 block, unsigned sharedBytes, void** args,
              const Stream* stream = nullptr) const;
  bool hasKernel(std::string_view kernel) const;

  const CompileRecord& record() const;  // target, options, NVRTC time or cache hit, log
  Engine& engine() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace culift::rt
