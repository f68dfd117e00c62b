// The CPU backend: buffers in host memory, every launch run as the GPU kernel would run it: by
// the kernel's host launcher (native code the app compiled, culift/runtime/host_launchers.hpp)
// or the kernel compiled for the host (cpujit/), its outputs split over a thread pool of every
// core in contiguous chunks, or by the interpreter where neither runs it (or on request). All give
// the same bits. Work is synchronous, so streams only order and events only time.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <optional>

#include "../backend.hpp"
#include "culift/cpujit.hpp"
#include "culift/interpreter.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/host_launchers.hpp"
#include "culift/runtime/kernel.hpp"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

namespace culift::rt::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::align_val_t kAlignment{64};

struct LoadedProgram {
  std::shared_ptr<const interp::Program> program;
  std::shared_ptr<const cpujit::Program> compiled;  // null: the interpreter runs every launch
  std::map<const Function*, HostEntry> native;      // the kernels with a host launcher
  CompileRecord record;
};

// A launch's arguments as the compiled code takes them: per signature parameter, a buffer's
// address or the address of a scalar's value in the parameter's type.
cpujit::LaunchArgs compiledArgs(const Function& fn, const LaunchPlan& plan, std::span<const ResolvedArg> args,
                                std::vector<std::uint64_t>& scalars) {
  cpujit::LaunchArgs out;
  const std::size_t n = fn.signature.params.size();
  out.params.assign(n, nullptr);
  out.lengths.assign(n, 0);
  scalars.assign(n, 0);
  for (const ResolvedArg& a : args) {
    const auto k = static_cast<std::size_t>(a.param - fn.signature.params.data());
    if (a.isBuffer) {
      out.params[k] = reinterpret_cast<const void*>(a.buffer.address);
      out.lengths[k] = a.buffer.count;
      continue;
    }
    // Little-endian: the value's bytes start the slot, whatever its width.
    switch (a.value.type) {
      case Scalar::Bool: scalars[k] = a.value.b ? 1 : 0; break;
      case Scalar::F32: std::memcpy(&scalars[k], &a.value.f, 4); break;
      case Scalar::F64: std::memcpy(&scalars[k], &a.value.d, 8); break;
      default: scalars[k] = isSigned(a.value.type) ? static_cast<std::uint64_t>(a.value.i) : a.value.u;
    }
    out.params[k] = &scalars[k];
  }
  for (unsigned axis = 0; axis < 3; ++axis) out.extent[axis] = axis < plan.rank ? plan.extent[axis] : 1;
  return out;
}

class CpuBackend final : public BackendImpl {
 public:
  explicit CpuBackend(const EngineOptions& options)
      : options_(options), cache_(CompileCache::Options{{}, /*disk=*/false, options.warn}) {
    std::string why;
    compiled_ = options.cpuCode != CpuCode::Interpreted && !options.checkConflicts && cpujit::available(&why);
    useNative_ = options.cpuCode != CpuCode::Interpreted && !options.checkConflicts && options.hostLaunchers;
    threads_ = options.cpuThreads ? options.cpuThreads
                                  : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
    info_.name = compiled_ ? "CPU (compiled for " + cpujit::hostDescription() + ", " + std::to_string(threads_) +
                                 " threads" + (options.cpuCode == CpuCode::Unchecked ? ", unchecked" : "") + ")"
                           : "CPU (interpreter)";
  }

  Backend kind() const override { return Backend::Cpu; }
  bool runsHostLauncher(const Module& module, const Function& fn) const override {
    return useNative_ && findHostLauncher(module, fn);
  }
  const DeviceInfo& device() const override { return info_; }

  std::uint64_t allocate(std::size_t bytes) override {
    if (bytes == 0) return 0;
    void* p = ::operator new(bytes, kAlignment);
    std::memset(p, 0, bytes);
    return reinterpret_cast<std::uint64_t>(p);
  }
  void release(std::uint64_t address) noexcept override {
    ::operator delete(reinterpret_cast<void*>(address), kAlignment);
  }
  void copyIn(std::uint64_t dst, const void* src, std::size_t bytes, void*, bool) override {
    std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
  }
  void copyOut(void* dst, std::uint64_t src, std::size_t bytes, void*, bool) override {
    std::memcpy(dst, reinterpret_cast<const void*>(src), bytes);
  }
  void fillZero(std::uint64_t dst, std::size_t bytes, void*) override {
    std::memset(reinterpret_cast<void*>(dst), 0, bytes);
  }

  void load(const std::shared_ptr<const Module>& module) override {
    std::lock_guard lock(mutex_);
    loadLocked(module);
  }
  void* function(const std::shared_ptr<const Module>& module, const Function&, const std::string&,
                 const std::string&) override {
    std::lock_guard lock(mutex_);
    return &loadLocked(module);
  }

  void launch(const Function& fn, void* function, const LaunchPlan& plan, std::span<const ResolvedArg> args, void*,
              bool) override {
    const auto& loaded = *static_cast<const LoadedProgram*>(function);
    // A reassociating plan's order where the GPU would take that plan's entry; the loop as
    // written where it would run a per-thread entry.
    const bool loopAsWritten = !choosePlanEntry(fn, plan, info_);
    // The native function adds a reassociating kernel's terms as written only.
    if (auto it = loaded.native.find(&fn);
        it != loaded.native.end() && (loopAsWritten || fn.reassociatedSums.empty())) {
      if (launchEntries(fn, plan, args, [&](const cpujit::LaunchArgs& a, std::uint64_t first, std::uint64_t last) {
            std::uint32_t site = 0;
            return it->second(a.params.data(), a.lengths.data(), a.extent, first, last, &site) == kHostEntryDone;
          }))
        return;
    }
    if (const cpujit::Kernel* k = loaded.compiled ? loaded.compiled->kernel(fn) : nullptr) {
      if (launchEntries(fn, plan, args, [&](const cpujit::LaunchArgs& a, std::uint64_t first, std::uint64_t last) {
            return !k->run(a, first, last, loopAsWritten);
          }))
        return;
    }
    interpret(*loaded.program, fn, plan, args, loopAsWritten);
  }

  // Runs `chunk` over the launch's outputs; false when a chunk failed: the interpreter then
  // reruns the launch for its error.
  template <class Chunk>
  bool launchEntries(const Function& fn, const LaunchPlan& plan, std::span<const ResolvedArg> args, Chunk chunk) {
    std::vector<std::uint64_t> scalars;
    const cpujit::LaunchArgs a = compiledArgs(fn, plan, args, scalars);
    // The launch's part (LaunchPlan::partFirst, partLast): the outputs [base, base + total).
    const std::uint64_t base = static_cast<std::uint64_t>(plan.partFirst);
    const auto end = static_cast<std::uint64_t>(plan.partEnd());
    const std::uint64_t total = end - base;
    // Contiguous chunks, a few per thread so that uneven rows even out; small launches run here.
    const std::uint64_t chunks = total < 4096 ? 1 : std::min<std::uint64_t>(total, std::uint64_t{threads_} * 4);
    if (chunks == 1) return total == 0 || chunk(a, base, end);
    std::vector<char> ok(chunks, 0);
    std::vector<std::shared_future<void>> done;
    for (std::uint64_t c = 0; c < chunks; ++c)
      done.push_back(
          pool().async([&, c] { ok[c] = chunk(a, base + total * c / chunks, base + total * (c + 1) / chunks); }));
    for (auto& d : done) d.wait();
    return std::all_of(ok.begin(), ok.end(), [](char c) { return c != 0; });
  }

  void interpret(const interp::Program& program, const Function& fn, const LaunchPlan& plan,
                 std::span<const ResolvedArg> args, bool loopAsWritten) {
    std::vector<interp::Arg> kernelArgs;
    kernelArgs.reserve(args.size());
    for (const ResolvedArg& a : args) {
      if (a.param->role == ParamRole::Extent) continue;
      if (a.isBuffer) {
        interp::ArrayRef ref;
        ref.element = a.buffer.element;
        ref.data = reinterpret_cast<void*>(a.buffer.address);
        ref.size = a.buffer.count;
        ref.writable = !a.buffer.readOnly;
        kernelArgs.emplace_back(ref);
      } else {
        interp::Value v;
        v.type = a.value.type;
        switch (a.value.type) {
          case Scalar::Bool: v.b = a.value.b; break;
          case Scalar::F32: v.f = a.value.f; break;
          case Scalar::F64: v.d = a.value.d; break;
          default:
            if (isSigned(a.value.type)) v.i = a.value.i;
            else v.u = a.value.u;
        }
        kernelArgs.emplace_back(v);
      }
    }
    interp::Extent extent;
    extent.rank = plan.rank;
    for (unsigned axis = 0; axis < 3; ++axis) extent.n[axis] = plan.extent[axis];
    extent.first = static_cast<std::uint64_t>(plan.partFirst);
    extent.last = static_cast<std::uint64_t>(plan.partEnd());
    try {
      program.launch(fn, extent, kernelArgs, loopAsWritten);
    } catch (const interp::Error& e) {
      throw KernelError(e.diagnostic());  // one hierarchy for both backends: an rt::Error
    }
  }

  unsigned suggestedBlockSize(void*) override { return 256; }

  void* createStream() override { return new char; }
  void destroyStream(void* stream) noexcept override { delete static_cast<char*>(stream); }
  void synchronize(void*) override {}

  void* createEvent() override { return new Clock::time_point(Clock::now()); }
  void recordEvent(void* event, void*) override { *static_cast<Clock::time_point*>(event) = Clock::now(); }
  void synchronizeEvent(void*) override {}
  float elapsedMs(void* start, void* end) override {
    auto d = *static_cast<Clock::time_point*>(end) - *static_cast<Clock::time_point*>(start);
    return std::chrono::duration<float, std::milli>(d).count();
  }
  void destroyEvent(void* event) noexcept override { delete static_cast<Clock::time_point*>(event); }

  CompileCache* cache() override { return &cache_; }
  const std::shared_ptr<const Nvrtc>& nvrtc() const override { return noNvrtc_; }
  std::vector<CompileRecord> compileRecords() const override {
    std::lock_guard lock(mutex_);
    std::vector<CompileRecord> out;
    for (const auto& [key, loaded] : programs_) out.push_back(loaded.record);
    return out;
  }

 private:
  LoadedProgram& loadLocked(const std::shared_ptr<const Module>& module) {
    if (auto it = programs_.find(module.get()); it != programs_.end()) return it->second;
    auto start = Clock::now();
    interp::Options o;
    o.threads = options_.cpuThreads;
    o.checkConflicts = options_.checkConflicts;
    LoadedProgram loaded;
    try {
      loaded.program = interp::Program::compile(module, o);
    } catch (const interp::Error& e) {
      throw KernelError(e.diagnostic());
    }
    loaded.record.module = module->sourcePath;
    loaded.record.target = "interpreter";
    loaded.record.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (useNative_) {
      for (const Function* fn : module->kernels()) {
        std::string_view mismatch;
        if (const HostLauncher* l = findHostLauncher(*module, *fn, &mismatch)) loaded.native.emplace(fn, l->entry);
        else if (!mismatch.empty())
          warn("the host launcher of '" + fn->name + "' was made for " + std::string(mismatch) + ", not the module's " +
               fn->signature.toString() + ": its launches do not take it");
      }
    }
    // The JIT only for what the launchers leave: kernels without one, and reassociated orders. A
    // fused kernel has none (no C++ function is its source), and a pipeline does not launch it
    // where its pair has launchers: launched directly, it is interpreted.
    const bool jitNeeded = std::any_of(module->functions.begin(), module->functions.end(), [&](const Function& fn) {
      return fn.isKernel() && (!loaded.native.count(&fn) || !fn.reassociatedSums.empty()) &&
             !(fn.fusedOf.size() == 2 && !loaded.native.empty());
    });
    if (!loaded.native.empty()) {
      loaded.record.target = "native";
      loaded.record.options = {"host launchers"};
      for (const auto& [fn, entry] : loaded.native) loaded.record.log += fn->name + ": host launcher\n";
    }
    if (compiled_ && jitNeeded) {
      cpujit::Options jo;
      jo.checked = options_.cpuCode == CpuCode::Checked;
      loaded.compiled = cpujit::Program::compile(module, jo);
      // One record per module: the JIT's time (lowering, -O2, machine code), the kernels it left
      // to the interpreter in the log.
      loaded.record.target = loaded.native.empty() ? "host" : "native+host";
      loaded.record.milliseconds = loaded.compiled->compileMilliseconds();
      loaded.record.options.insert(loaded.record.options.end(), {"-O2", jo.checked ? "checked" : "unchecked"});
      for (const Function& fn : module->functions) {
        if (!fn.isKernel() || loaded.native.count(&fn)) continue;
        const cpujit::Kernel* k = loaded.compiled->kernel(fn);
        if (!k) loaded.record.log += fn.name + ": interpreted: " + loaded.compiled->whyNot(fn) + "\n";
        else if (k->lanes() > 1)
          loaded.record.log += fn.name + ": " + std::to_string(k->lanes()) + " outputs side by side" +
                               (k->tiled() ? ", in tiles of " + std::to_string(k->tileRows()) + " x " +
                                                 std::to_string(k->tileColumns())
                                           : std::string()) +
                               "\n";
        else loaded.record.log += fn.name + ": one output at a time: " + k->whyOneLane() + "\n";
      }
    }
    return programs_.emplace(module.get(), std::move(loaded)).first->second;
  }

  llvm::ThreadPool& pool() {
    std::lock_guard lock(poolMutex_);
    if (!pool_) pool_ = std::make_unique<llvm::ThreadPool>(llvm::hardware_concurrency(threads_));
    return *pool_;
  }

  // As the compile cache warns: through EngineOptions::warn, else a line on stderr.
  void warn(const std::string& message) const {
    if (options_.warn) options_.warn(message);
    else llvm::errs() << "culift: warning: " << message << "\n";
  }

  EngineOptions options_;
  bool compiled_ = false;
  bool useNative_ = false;
  unsigned threads_ = 1;
  std::mutex poolMutex_;
  std::unique_ptr<llvm::ThreadPool> pool_;
  DeviceInfo info_;
  CompileCache cache_;
  std::shared_ptr<const Nvrtc> noNvrtc_;
  mutable std::mutex mutex_;
  std::map<const Module*, LoadedProgram> programs_;
};

}  // namespace

std::unique_ptr<BackendImpl> createCpuBackend(const EngineOptions& options, std::string*) {
  return std::make_unique<CpuBackend>(options);
}

}  // namespace culift::rt::detail
