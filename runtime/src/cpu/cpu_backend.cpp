// The CPU backend: buffers in host memory, every launch run by the interpreter exactly as the
// GPU kernel would run it. Work is synchronous, so streams only order and events only time.
#include <chrono>
#include <cstring>
#include <map>
#include <mutex>
#include <new>

#include "../backend.hpp"
#include "culift/interpreter.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/kernel.hpp"

namespace culift::rt::detail {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::align_val_t kAlignment{64};

struct LoadedProgram {
  std::shared_ptr<const interp::Program> program;
  CompileRecord record;
};

class CpuBackend final : public BackendImpl {
 public:
  explicit CpuBackend(const EngineOptions& options)
      : options_(options), cache_(CompileCache::Options{{}, /*disk=*/false, options.warn}) {
    info_.name = "CPU (interpreter)";
  }

  Backend kind() const override { return Backend::Cpu; }
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
  void* function(const std::shared_ptr<const Module>& module, const Function&, const std::string&) override {
    std::lock_guard lock(mutex_);
    return const_cast<interp::Program*>(loadLocked(module).program.get());
  }

  void launch(const Function& fn, void* function, const LaunchPlan& plan, std::span<const ResolvedArg> args,
              void*) override {
    const auto* program = static_cast<const interp::Program*>(function);
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
    // A reassociating plan's order where the GPU would take that plan's entry; the loop as
    // written where it would run a per-thread entry.
    try {
      program->launch(fn, extent, kernelArgs, /*loopAsWritten=*/!choosePlanEntry(fn, plan, info_));
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
    return programs_.emplace(module.get(), std::move(loaded)).first->second;
  }

  EngineOptions options_;
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
