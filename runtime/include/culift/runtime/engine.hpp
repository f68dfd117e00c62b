// The engine: one device (or the CPU backend) with its compiled modules, streams and events.
// GPU engines use NVRTC and the CUDA driver loaded with dlopen; where there is no usable GPU,
// Engine::tryCreate says why and the CPU backend (the interpreter) runs the same launches.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/runtime/cache.hpp"
#include "culift/runtime/plan.hpp"

namespace culift::rt {

class Engine;
class Kernel;
class Stream;
class Event;
class Nvrtc;

enum class Backend : std::uint8_t { Gpu, Cpu };
std::string_view name(Backend b);  // "gpu", "cpu"

// How floating-point code is compiled for the GPU.
enum class MathMode : std::uint8_t {
  Default,  // NVRTC's defaults: a*b+c may contract into an FMA
  Strict,   // --fmad=false: + - * / sqrt and conversions bit-exact with the CPU
  Fast,     // --use_fast_math: approximate division, sqrt and transcendentals
};
std::string_view name(MathMode m);  // "default", "strict", "fast"

// How the CPU backend runs a launch (docs/runtime.md#the-cpu-backend).
enum class CpuCode : std::uint8_t {
  // The kernel compiled for the host (cpujit/), over every core, with checks: an index out of
  // range, an integer division by zero or a shift out of range stops the launch, which the
  // interpreter then reruns for its located error. The interpreter where a kernel does not compile.
  Checked,
  Unchecked,    // compiled without those checks: faster; what C++ leaves undefined gives some value
  Interpreted,  // the interpreter runs every launch
};
std::string_view name(CpuCode c);  // "checked", "unchecked", "interpreter"

struct EngineOptions {
  int deviceOrdinal = 0;
  MathMode math = MathMode::Default;
  bool lineInfo = true;  // -lineinfo: tools map device faults to the user's C++ lines
  // Check the lifted functions' assert()s on the GPU too (-DCULIFT_DEVICE_ASSERTS). Off, they are
  // compiled out, as NDEBUG does; on, a failed one prints its condition and location and the
  // launch fails with CudaError CUDA_ERROR_ASSERT (the context is unusable afterwards). The
  // interpreter (the CPU backend) checks them always.
  bool deviceAsserts = false;
  // More NVRTC options for every compile of this engine, after culift's own (part of the cache
  // key), e.g. {"--ptxas-options=-O0"} to tell a device-assembler miscompilation from culift's
  // emitted source. Appended after them: the words of $CULIFT_NVRTC_OPTIONS, split at spaces.
  std::vector<std::string> extraCompileOptions;
  std::string cacheDir;           // empty: CompileCache::defaultDirectory()
  bool diskCache = true;          // false: compiled images are cached in memory only
  std::string translatorVersion;  // empty: the translator this runtime was built with
  unsigned cpuThreads = 0;        // CPU backend: 0 = every core
  // CPU backend: compiled host code, checked (the default) or not, or the interpreter. Conflict
  // checks (checkConflicts) always run in the interpreter.
  CpuCode cpuCode = CpuCode::Checked;
  // CPU backend: run a kernel's launches through its host launcher where the module has one (native
  // code the app compiled, culift/runtime/host_launchers.hpp; unchecked), unless cpuCode is
  // Interpreted or checkConflicts is set. False: the compiled (or interpreted) kernel instead.
  bool hostLaunchers = true;
  // CPU backend: checked launches (interp::Options::checkConflicts). An element of a writable
  // array that two outputs of one launch write, or that one writes and another reads, is an
  // interp::Error naming both outputs (a data race on the GPU). std::atomic_ref updates are exempt.
  bool checkConflicts = false;
  std::function<void(const std::string&)> warn;  // cache warnings; default: stderr
  // Without NVRTC a GPU engine can still run modules that carry a cubin for its device and its
  // compile options (Module::images; culift_add_kernels embeds them). True creates the GPU
  // engine then, and loading a module without such a cubin is an Error; false (the default):
  // no NVRTC, no GPU engine (tryCreate says why, createGpuOrCpu takes the CPU backend).
  bool nvrtcOptional = false;
  // GPU backend: compile a module's kernels one at a time, each when it is first launched
  // (NVRTC with -DCULIFT_ONLY_ENTRIES -DCULIFT_ENTRY_<kernel>: the emitted source holds that kernel
  // alone), instead of the whole module at its first use. A module of many kernels of which a
  // few run starts sooner; one whose kernels all run takes longer in all (each compile reads the
  // whole source). Engine::load still compiles the whole module, and a module's own cubin for the
  // device (Module::images) serves every kernel.
  bool compileEachEntry = false;
  // GPU backend: where a launch could take one of several entries of its loop plan that give the
  // same bits (tiles of another size or shape, a stencil's slabs of other lengths), the second
  // launch of the kernel at a shape times each on its own arguments (its results written to
  // scratch) and keeps the fastest for that kernel, shape and device, in memory and (with
  // diskCache) in a table beside the compile cache (docs/runtime.md#measured-entry-choices); the
  // first runs the rules' choice. The launch that measures waits for its stream.
  // False, or $CULIFT_TUNE=0: the runtime's rules choose alone.
  bool tuneEntries = true;
};

// Whether an engine with these options measures entry choices: options.tuneEntries, unless
// $CULIFT_TUNE is 0, "off" or "false".
bool tuneEntries(const EngineOptions& options);

struct DeviceInfo {
  int ordinal = 0;
  std::string name;  // "NVIDIA H200", or "CPU (interpreter)"
  int computeMajor = 0;
  int computeMinor = 0;
  std::uint64_t totalMemory = 0;  // bytes
  int multiprocessors = 0;
  int driverVersion = 0;  // 13000 = CUDA 13.0; 0 for the CPU backend
  GridLimits limits;

  int arch() const { return computeMajor * 10 + computeMinor; }  // 90
  std::string toString() const;                                  // "NVIDIA H200 (sm_90, 132 SMs, 139.7 GiB)"
};

// What compiling one module for this engine did.
struct CompileRecord {
  std::string module;  // the module's source path
  std::string target;  // "sm_90" (cubin), "compute_90" (PTX), "interpreter", "host" (the compiled CPU code)
  bool fromCache = false;
  double milliseconds = 0;  // NVRTC time (0 when cached); for "host", the JIT's (lowering, -O2, machine code)
  std::vector<std::string> options;
  std::string log;        // NVRTC warnings, if any
  bool embedded = false;  // the module's own image for the device (Module::images): no NVRTC
  std::string entry;      // the one kernel compiled (EngineOptions::compileEachEntry); empty: every kernel
};

// Where a launch or copy goes: an engine's default stream, or one of its streams.
struct LaunchTarget {
  LaunchTarget(Engine& e);                         // NOLINT: implicit on purpose
  LaunchTarget(const std::shared_ptr<Engine>& e);  // NOLINT
  LaunchTarget(Stream& s);                         // NOLINT
  Engine* engine;
  void* stream;  // null: the default stream
};

class Engine : public std::enable_shared_from_this<Engine> {
 public:
  // A GPU engine for options.deviceOrdinal, or null with a reason a person can act on in
  // `whyNot` (no driver, the driver stub, no device, no NVRTC, ...). Compiles every module in
  // the registry (registry.hpp); a module that does not compile throws CompileError.
  static std::shared_ptr<Engine> tryCreate(const EngineOptions& options = {}, std::string* whyNot = nullptr);
  // The CPU backend: the interpreter runs every launch. Throws Error when culift was built
  // without the interpreter.
  static std::shared_ptr<Engine> createCpu(const EngineOptions& options = {});
  // A GPU engine when one can be created, else the CPU backend (`whyNotGpu` says why).
  static std::shared_ptr<Engine> createGpuOrCpu(const EngineOptions& options = {}, std::string* whyNotGpu = nullptr);
  static bool cpuBackendAvailable();

  Backend backend() const;
  const DeviceInfo& device() const;
  const EngineOptions& options() const;

  // Compiles (or finds in the cache) and loads a module now; kernel() does it on first use.
  void load(const std::shared_ptr<const Module>& module);
  // A kernel of a loaded module, by the user's function name. Throws Error naming the
  // functions that exist when `function` is not a kernel of `module`.
  Kernel kernel(const std::shared_ptr<const Module>& module, std::string_view function);

  void synchronize();  // waits for all work on the device
  Stream createStream();
  Event createEvent();

  CompileCache& cache();                              // hit/miss counters, explain()
  const std::shared_ptr<const Nvrtc>& nvrtc() const;  // null for the CPU backend
  std::vector<CompileRecord> compileRecords() const;

  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  ~Engine();

  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// A stream of the engine's device (the CPU backend runs everything synchronously in order).
class Stream {
 public:
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();

  void synchronize();
  Engine& engine() const { return *engine_; }
  void* handle() const { return handle_; }

 private:
  friend class Engine;
  Stream(std::shared_ptr<Engine> engine, void* handle) : engine_(std::move(engine)), handle_(handle) {}
  std::shared_ptr<Engine> engine_;
  void* handle_ = nullptr;
};

// A timing event. elapsedMs(start, end) is the device time between the two records.
class Event {
 public:
  Event(Event&& other) noexcept;
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  void record(const LaunchTarget& target);
  void synchronize();
  static float elapsedMs(const Event& start, const Event& end);  // waits for `end`

 private:
  friend class Engine;
  Event(std::shared_ptr<Engine> engine, void* handle) : engine_(std::move(engine)), handle_(handle) {}
  std::shared_ptr<Engine> engine_;
  void* handle_ = nullptr;
};

}  // namespace culift::rt
