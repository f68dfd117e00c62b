// The GPU backend: one device's primary context, modules compiled by NVRTC (through the compile
// cache) and loaded with the driver, launches with cuLaunchKernel.
#include <algorithm>
#include <map>
#include <mutex>
#include <utility>

#include "backend.hpp"
#include "culift/runtime/compiler.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/nvrtc.hpp"
#include "culift/runtime/raw_module.hpp"
#include "driver_api.hpp"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace culift::rt::detail {
namespace {

struct LoadedModule {
  std::shared_ptr<const Module> module;  // keeps the Functions kernels point at alive
  CUmodule handle = nullptr;
  CompileRecord record;
  std::map<std::string, CUfunction> functions;
};

class GpuBackend final : public BackendImpl {
 public:
  GpuBackend(std::shared_ptr<const DriverApi> api, std::shared_ptr<const Nvrtc> nvrtc, CUdevice device,
             CUcontext context, DeviceInfo info, const EngineOptions& options)
      : api_(std::move(api)),
        nvrtc_(std::move(nvrtc)),
        device_(device),
        context_(context),
        info_(std::move(info)),
        options_(options),
        cache_(CompileCache::Options{options.cacheDir, options.diskCache, options.warn}) {}

  ~GpuBackend() override {
    // Errors here cannot be reported (a fault may have left the context unusable): ignore them.
    api_->cuCtxSetCurrent(context_);
    for (auto& [key, loaded] : modules_)
      if (loaded.handle) api_->cuModuleUnload(loaded.handle);
    for (auto& [key, loaded] : entries_)
      if (loaded.handle) api_->cuModuleUnload(loaded.handle);
    api_->cuDevicePrimaryCtxRelease(device_);
  }

  Backend kind() const override { return Backend::Gpu; }
  const DeviceInfo& device() const override { return info_; }

  std::uint64_t allocate(std::size_t bytes) override {
    if (bytes == 0) return 0;
    makeCurrent();
    CUdeviceptr p = 0;
    CUresult r = api_->cuMemAlloc(&p, bytes);
    if (r != kCudaSuccess) {
      std::string context = "allocating " + std::to_string(bytes) + " bytes on " + info_.name;
      api_->fail(r, "cuMemAlloc_v2", context.c_str());
    }
    if ((r = api_->cuMemsetD8(p, 0, bytes)) != kCudaSuccess) {
      api_->cuMemFree(p);
      api_->fail(r, "cuMemsetD8_v2", "zero-filling a new buffer");
    }
    return p;
  }

  void release(std::uint64_t address) noexcept override {
    api_->cuCtxSetCurrent(context_);
    api_->cuMemFree(address);
  }

  void copyIn(std::uint64_t dst, const void* src, std::size_t bytes, void* stream, bool async) override {
    makeCurrent();
    if (async)
      api_->check(api_->cuMemcpyHtoDAsync(dst, src, bytes, static_cast<CUstream>(stream)), "cuMemcpyHtoDAsync_v2");
    else api_->check(api_->cuMemcpyHtoD(dst, src, bytes), "cuMemcpyHtoD_v2");
  }

  void copyOut(void* dst, std::uint64_t src, std::size_t bytes, void* stream, bool async) override {
    makeCurrent();
    if (async)
      api_->check(api_->cuMemcpyDtoHAsync(dst, src, bytes, static_cast<CUstream>(stream)), "cuMemcpyDtoHAsync_v2");
    else api_->check(api_->cuMemcpyDtoH(dst, src, bytes), "cuMemcpyDtoH_v2");
  }

  bool copyBetween(std::uint64_t dst, BackendImpl& from, std::uint64_t src, std::size_t bytes) override {
    if (from.kind() != Backend::Gpu || !api_->cuMemcpy) return false;
    // Both are device memory under unified addressing: the driver copies between the devices
    // (over NVLink or PCIe, peer to peer where the devices allow it). Ordered after the work of
    // both devices' default streams.
    from.synchronize(nullptr);
    makeCurrent();
    api_->check(api_->cuMemcpy(dst, src, bytes), "cuMemcpy");
    return true;
  }

  void fillZero(std::uint64_t dst, std::size_t bytes, void* stream) override {
    makeCurrent();
    if (stream) api_->check(api_->cuMemsetD8Async(dst, 0, bytes, static_cast<CUstream>(stream)), "cuMemsetD8Async");
    else api_->check(api_->cuMemsetD8(dst, 0, bytes), "cuMemsetD8_v2");
  }

  void load(const std::shared_ptr<const Module>& module) override {
    std::lock_guard lock(mutex_);
    loadLocked(module);
  }

  void* function(const std::shared_ptr<const Module>& module, const Function& fn, const std::string& entry,
                 const std::string& unit) override {
    std::lock_guard lock(mutex_);
    // The whole module where it is loaded or carries a cubin for the device; else, when the
    // engine compiles kernel by kernel, this one alone (with the others of its guard).
    const bool alone = options_.compileEachEntry && !modules_.count(module.get()) && !embeddedImage(*module);
    LoadedModule& loaded = alone ? loadEntryLocked(module, unit.empty() ? entry : unit) : loadLocked(module);
    if (auto it = loaded.functions.find(entry); it != loaded.functions.end()) return it->second;
    makeCurrent();
    CUfunction f = nullptr;
    CUresult r = api_->cuModuleGetFunction(&f, loaded.handle, entry.c_str());
    if (r != kCudaSuccess) {
      std::string context = "looking up kernel '" + entry + "' of " + fn.name;
      api_->fail(r, "cuModuleGetFunction", context.c_str());
    }
    loaded.functions.emplace(entry, f);
    return f;
  }

  void launch(const Function& fn, void* function, const LaunchPlan& plan, std::span<const ResolvedArg> args,
              void* stream, bool afterEntry) override {
    const GridLimits& l = info_.limits;
    if (plan.grid.x > l.maxGrid[0] || plan.grid.y > l.maxGrid[1] || plan.grid.z > l.maxGrid[2] ||
        plan.block.x > l.maxBlock[0] || plan.block.y > l.maxBlock[1] || plan.block.z > l.maxBlock[2] ||
        plan.block.volume() > l.maxThreadsPerBlock)
      throw ArgumentError(fn.name + ": the launch plan " + plan.toString() + " exceeds the limits of " + info_.name);
    if (plan.sharedBytes > l.maxSharedPerBlock)
      throw ArgumentError(fn.name + ": the launch plan takes " + std::to_string(plan.sharedBytes) +
                          " bytes of shared memory; " + info_.name + " gives a block " +
                          std::to_string(l.maxSharedPerBlock));
    if (plan.sharedBytes > kStaticSharedBytes) optIn(function, plan.sharedBytes, fn);
    // One 8-byte slot per parameter: pointers, scalars in their own width, extents.
    llvm::SmallVector<std::uint64_t, 16> slots(args.size(), 0);  // no heap allocation per launch
    llvm::SmallVector<void*, 16> pointers(args.size());
    for (std::size_t p = 0; p < args.size(); ++p) {
      if (args[p].isBuffer) slots[p] = args[p].buffer.address;
      else if (!args[p].bytes) args[p].value.store(&slots[p]);
      pointers[p] = args[p].bytes ? const_cast<void*>(args[p].bytes) : &slots[p];
    }
    makeCurrent();
    // An edge kernel overlaps its entry's last wave where the device (sm_90+) and driver allow:
    // programmatic stream serialization. Measured on an H100 (bench/gpu/gemm_variants.cu, GEMM
    // 4000 x 4000 x 4096): entry and edge kernel one after the other 3.91 ms, in one kernel 3.43.
    const bool overlap = afterEntry && api_->cuLaunchKernelEx && info_.arch() >= 90;
    CUresult r = kCudaSuccess;
    if (overlap) {
      LaunchAttribute programmatic;
      programmatic.id = kLaunchAttrProgrammaticStreamSerialization;
      programmatic.value.value = 1;
      const LaunchConfig config{plan.grid.x,      plan.grid.y,
                                plan.grid.z,      plan.block.x,
                                plan.block.y,     plan.block.z,
                                plan.sharedBytes, static_cast<CUstream>(stream),
                                &programmatic,    1};
      r = api_->cuLaunchKernelEx(&config, static_cast<CUfunction>(function), pointers.data(), nullptr);
    } else {
      r = api_->cuLaunchKernel(static_cast<CUfunction>(function), plan.grid.x, plan.grid.y, plan.grid.z, plan.block.x,
                               plan.block.y, plan.block.z, plan.sharedBytes, static_cast<CUstream>(stream),
                               pointers.data(), nullptr);
    }
    if (r != kCudaSuccess) {
      std::string context = "launching " + fn.name + " (" + plan.toString() + ")";
      api_->fail(r, overlap ? "cuLaunchKernelEx" : "cuLaunchKernel", context.c_str());
    }
  }

  bool encodeTensorMap(void* map, std::uint64_t address, std::uint64_t rows, std::uint64_t cols,
                       std::uint64_t strideBytes, unsigned boxCols, unsigned boxRows) override {
    // The driver's limits: a 16-byte aligned address and stride, dimensions up to 2^32, a stride
    // below 2^40, boxes of at most 256 a side whose rows of the 128-byte swizzle are 128 bytes at most.
    if (!api_->cuTensorMapEncodeTiled || info_.arch() < 90 || address % 16 != 0 || strideBytes % 16 != 0 || rows == 0 ||
        cols == 0 || rows > (1ull << 32) || cols > (1ull << 32) || strideBytes >= (1ull << 40) ||
        strideBytes < cols * 4 || boxCols * 4 > 128 || boxRows > 256 || boxCols == 0 || boxRows == 0)
      return false;
    const unsigned long long dims[2] = {cols, rows}, strides[1] = {strideBytes};
    const unsigned box[2] = {boxCols, boxRows}, unit[2] = {1, 1};
    makeCurrent();
    return api_->cuTensorMapEncodeTiled(map, kTensorMapFloat32, 2, reinterpret_cast<void*>(address), dims, strides, box,
                                        unit, kTensorMapInterleaveNone, kTensorMapSwizzle128, kTensorMapL2Promotion256,
                                        kTensorMapFillZeros) == kCudaSuccess;
  }

  // Dynamic shared memory above 48 KiB needs the function's limit raised first, once per function.
  void optIn(void* function, unsigned bytes, const Function& fn) {
    std::lock_guard lock(mutex_);
    unsigned& raised = sharedLimits_[function];
    if (raised >= bytes) return;
    makeCurrent();
    std::string context = "raising the shared memory limit of " + fn.name + " to " + std::to_string(bytes) + " bytes";
    api_->check(api_->cuFuncSetAttribute(static_cast<CUfunction>(function), kFuncAttrMaxDynamicSharedSizeBytes,
                                         static_cast<int>(bytes)),
                "cuFuncSetAttribute", context.c_str());
    raised = bytes;
  }

  unsigned suggestedBlockSize(void* function) override {
    makeCurrent();
    int minGrid = 0, block = 0;
    api_->check(api_->cuOccupancyMaxPotentialBlockSize(&minGrid, &block, static_cast<CUfunction>(function), nullptr, 0,
                                                       0),
                "cuOccupancyMaxPotentialBlockSize");
    return block > 0 ? static_cast<unsigned>(block) : 256u;
  }

  void* createStream() override {
    makeCurrent();
    CUstream s = nullptr;
    api_->check(api_->cuStreamCreate(&s, 0), "cuStreamCreate");
    return s;
  }
  void destroyStream(void* stream) noexcept override {
    api_->cuCtxSetCurrent(context_);
    api_->cuStreamDestroy(static_cast<CUstream>(stream));
  }
  void synchronize(void* stream) override {
    makeCurrent();
    if (stream) api_->check(api_->cuStreamSynchronize(static_cast<CUstream>(stream)), "cuStreamSynchronize");
    else api_->check(api_->cuCtxSynchronize(), "cuCtxSynchronize");
  }

  void* createEvent() override {
    makeCurrent();
    CUevent e = nullptr;
    api_->check(api_->cuEventCreate(&e, 0), "cuEventCreate");
    return e;
  }
  void recordEvent(void* event, void* stream) override {
    makeCurrent();
    api_->check(api_->cuEventRecord(static_cast<CUevent>(event), static_cast<CUstream>(stream)), "cuEventRecord");
  }
  void synchronizeEvent(void* event) override {
    makeCurrent();
    api_->check(api_->cuEventSynchronize(static_cast<CUevent>(event)), "cuEventSynchronize");
  }
  float elapsedMs(void* start, void* end) override {
    synchronizeEvent(end);
    float ms = 0;
    api_->check(api_->cuEventElapsedTime(&ms, static_cast<CUevent>(start), static_cast<CUevent>(end)),
                "cuEventElapsedTime");
    return ms;
  }
  void destroyEvent(void* event) noexcept override {
    api_->cuCtxSetCurrent(context_);
    api_->cuEventDestroy(static_cast<CUevent>(event));
  }
  void waitEvent(void* stream, void* event) override {
    makeCurrent();
    api_->check(api_->cuStreamWaitEvent(static_cast<CUstream>(stream), static_cast<CUevent>(event), 0),
                "cuStreamWaitEvent");
  }

  void* createCaptureStream() override {
    makeCurrent();
    CUstream s = nullptr;
    api_->check(api_->cuStreamCreate(&s, kStreamNonBlocking), "cuStreamCreate", "creating a stream to capture");
    return s;
  }
  // Thread-local capture: a call that cannot be captured (an allocation, a synchronization) made
  // on this thread while it captures fails and invalidates the capture instead of going unseen;
  // other threads' calls are neither refused nor seen (global mode would refuse them too).
  bool beginCapture(void* stream, std::string* whyNot) override {
    if (std::string missing = api_->missingGraphEntries(); !missing.empty()) {
      if (whyNot) *whyNot = "the CUDA driver lacks " + missing;
      return false;
    }
    makeCurrent();
    if (CUresult r = api_->cuStreamBeginCapture(static_cast<CUstream>(stream), kCaptureModeThreadLocal);
        r != kCudaSuccess) {
      if (whyNot) *whyNot = "cuStreamBeginCapture_v2 failed: " + api_->errorName(r);
      return false;
    }
    return true;
  }
  CapturedGraph endCapture(void* stream, std::string* whyNot) override {
    api_->cuCtxSetCurrent(context_);
    CUgraph graph = nullptr;
    if (CUresult r = api_->cuStreamEndCapture(static_cast<CUstream>(stream), &graph); r != kCudaSuccess) {
      if (graph) api_->cuGraphDestroy(graph);
      if (whyNot) *whyNot = "cuStreamEndCapture failed: " + api_->errorName(r);
      return {};
    }
    CUgraphExec exec = nullptr;
    if (CUresult r = api_->cuGraphInstantiateWithFlags(&exec, graph, 0); r != kCudaSuccess) {
      api_->cuGraphDestroy(graph);
      if (whyNot) *whyNot = "cuGraphInstantiateWithFlags failed: " + api_->errorName(r);
      return {};
    }
    return {graph, exec};
  }
  void abortCapture(void* stream) noexcept override {
    api_->cuCtxSetCurrent(context_);
    CUgraph graph = nullptr;
    api_->cuStreamEndCapture(static_cast<CUstream>(stream), &graph);  // fails for an invalidated capture
    if (graph) api_->cuGraphDestroy(graph);
  }
  void launchGraph(const CapturedGraph& graph, void* stream) override {
    makeCurrent();
    api_->check(api_->cuGraphLaunch(static_cast<CUgraphExec>(graph.exec), static_cast<CUstream>(stream)),
                "cuGraphLaunch", "replaying a pipeline's graph");
  }
  void destroyGraph(const CapturedGraph& graph) noexcept override {
    api_->cuCtxSetCurrent(context_);
    if (graph.exec) api_->cuGraphExecDestroy(static_cast<CUgraphExec>(graph.exec));
    if (graph.graph) api_->cuGraphDestroy(static_cast<CUgraph>(graph.graph));
  }

  bool capturing(void* stream) override {
    if (!api_->cuStreamIsCapturing) return true;
    makeCurrent();
    int status = 0;
    return api_->cuStreamIsCapturing(static_cast<CUstream>(stream), &status) != kCudaSuccess || status != 0;
  }
  TuningTable* tuning() override {
    if (!tuneEntries(options_)) return nullptr;
    std::call_once(tuningOnce_, [&] {
      tuning_ = std::make_unique<TuningTable>(cache_.diskEnabled() ? TuningTable::fileFor(cache_.directory(), info_)
                                                                   : std::string(),
                                              options_.warn);
    });
    return tuning_.get();
  }
  std::string moduleDigest(const std::shared_ptr<const Module>& module) override {
    std::lock_guard lock(mutex_);
    auto [it, fresh] = digests_.try_emplace(module.get());
    if (fresh) it->second = {module, llvm::utohexstr(llvm::xxHash64(module->cudaSource), /*LowerCase=*/true)};
    return it->second.second;
  }

  CompileCache* cache() override { return &cache_; }
  const std::shared_ptr<const Nvrtc>& nvrtc() const override { return nvrtc_; }
  std::vector<CompileRecord> compileRecords() const override {
    std::lock_guard lock(mutex_);
    std::vector<CompileRecord> out;
    for (const auto& [key, loaded] : modules_) out.push_back(loaded.record);
    for (const auto& [key, loaded] : entries_) out.push_back(loaded.record);
    return out;
  }

 private:
  void makeCurrent() const { api_->check(api_->cuCtxSetCurrent(context_), "cuCtxSetCurrent"); }

  std::vector<std::string> compileOptions() const { return RawModule::compileOptions(options_, {}); }

  // The cubin the module carries for this device, compiled with this engine's options, with or
  // without -lineinfo (line tables change no instruction: a cubin built without them for a
  // quicker start serves an engine that asks for them); null when it has none (it then goes
  // through NVRTC and the cache).
  const DeviceImage* embeddedImage(const Module& module) const {
    const std::string target = CompileTarget{info_.arch(), true}.name();
    auto withoutLineInfo = [](std::vector<std::string> options) {
      std::erase(options, "-lineinfo");
      return options;
    };
    const std::vector<std::string> options = withoutLineInfo(compileOptions());
    for (const DeviceImage& image : module.images)
      if (image.target == target && withoutLineInfo(image.options) == options && !image.image().empty()) return &image;
    return nullptr;
  }

  LoadedModule& loadLocked(const std::shared_ptr<const Module>& module) {
    if (auto it = modules_.find(module.get()); it != modules_.end()) return it->second;
    return modules_.emplace(module.get(), compileAndLoad(module, "")).first->second;
  }

  // Kernel `entry` of the module alone (EngineOptions::compileEachEntry).
  LoadedModule& loadEntryLocked(const std::shared_ptr<const Module>& module, const std::string& entry) {
    const auto key = std::make_pair(module.get(), entry);
    if (auto it = entries_.find(key); it != entries_.end()) return it->second;
    return entries_.emplace(key, compileAndLoad(module, entry)).first->second;
  }

  // The module's image for the device (`entry` empty: every kernel; else that kernel alone,
  // through NVRTC), loaded.
  LoadedModule compileAndLoad(const std::shared_ptr<const Module>& module, const std::string& entry) {
    CompiledImage compiled;
    // The image handed to the driver: the module's own cubin (read in place; the module outlives
    // the load), or what NVRTC or the cache gave.
    const void* imageBytes = nullptr;
    bool embedded = false;
    const DeviceImage* image = entry.empty() ? embeddedImage(*module) : nullptr;
    if (image) {
      imageBytes = image->image().data();
      compiled.target = CompileTarget{info_.arch(), true};
      compiled.options = image->options;
      embedded = true;
    } else {
      if (!nvrtc_) {
        std::string carried;
        for (const DeviceImage& image : module->images) carried += (carried.empty() ? "" : ", ") + image.target;
        throw Error("no NVRTC to compile " + module->sourcePath + " for " + info_.name + " (sm_" +
                    std::to_string(info_.arch()) +
                    "), and the module carries no cubin for it with the engine's "
                    "options (" +
                    (carried.empty() ? std::string("it carries none") : "it carries " + carried) +
                    "): install the CUDA NVRTC library, set $CULIFT_NVRTC_PATH, or build the kernels for this "
                    "architecture (culift_add_kernels ... ARCHS " +
                    std::to_string(info_.arch()) + ")");
      }
      CompileRequest request;
      request.source = module->cudaSource;
      request.programName = llvm::sys::path::filename(module->sourcePath).str() + ".cu";
      request.options = compileOptions();
      if (!entry.empty()) {
        request.options.push_back("-D" + std::string(kOnlyEntriesMacro));
        request.options.push_back("-D" + entryMacro(entry));
      }
      request.translatorVersion = options_.translatorVersion;
      compiled = compileImage(*nvrtc_, &cache_, request, chooseTarget(*nvrtc_, info_.arch()));
      imageBytes = compiled.image->data();
    }

    makeCurrent();
    char errorLog[8192] = {0};
    int jitOptions[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
    void* jitValues[] = {errorLog, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof errorLog))};
    CUmodule handle = nullptr;
    CUresult r = api_->cuModuleLoadDataEx(&handle, imageBytes, 2, jitOptions, jitValues);
    if (r != kCudaSuccess) {
      std::string context = "loading the " + compiled.target.name() + " image of " + module->sourcePath +
                            (entry.empty() ? std::string() : " (kernel " + entry + " alone)");
      if (errorLog[0]) context += "; JIT log: " + std::string(errorLog);
      api_->fail(r, "cuModuleLoadDataEx", context.c_str());
    }
    LoadedModule loaded;
    loaded.module = module;
    loaded.handle = handle;
    loaded.record = {module->sourcePath, compiled.target.name(), compiled.fromCache, compiled.milliseconds,
                     compiled.options,   compiled.log,           embedded,           entry};
    return loaded;
  }

  std::shared_ptr<const DriverApi> api_;
  std::shared_ptr<const Nvrtc> nvrtc_;
  CUdevice device_;
  CUcontext context_;
  DeviceInfo info_;
  EngineOptions options_;
  CompileCache cache_;
  std::once_flag tuningOnce_;
  std::unique_ptr<TuningTable> tuning_;
  // moduleDigest's, by module (kept alive: the address names it).
  std::map<const Module*, std::pair<std::shared_ptr<const Module>, std::string>> digests_;
  mutable std::mutex mutex_;
  std::map<const Module*, LoadedModule> modules_;
  std::map<std::pair<const Module*, std::string>, LoadedModule> entries_;  // compiled kernel by kernel
  std::map<void*, unsigned> sharedLimits_;  // dynamic shared memory each function was allowed (optIn)
};

// Why cuInit failed, in words a person can act on.
std::string initFailureReason(const DriverApi& api, CUresult r) {
  std::string s = "cuInit failed: " + api.errorName(r) + " (" + std::to_string(r) + ")";
  if (std::string d = api.errorDescription(r); !d.empty()) s += ": " + d;
  switch (r) {
    case 34:
      s += ". " + api.library.path() +
           " is the stub from the CUDA toolkit: remove its directory (…/lib64/stubs) "
           "from LD_LIBRARY_PATH so the real driver's libcuda.so.1 is found";
      break;
    case 100:
      s += ". Check nvidia-smi, $CUDA_VISIBLE_DEVICES, and (in a container) that it runs with --gpus all";
      break;
    case 35:
    case 803: s += ". Install a newer NVIDIA driver"; break;
    default: break;
  }
  return s;
}

}  // namespace

std::unique_ptr<BackendImpl> createGpuBackend(const EngineOptions& options, std::string* whyNot) {
  auto fail = [&](std::string reason) -> std::unique_ptr<BackendImpl> {
    if (whyNot) *whyNot = std::move(reason) + " (run 'culift probe' for a full report)";
    return nullptr;
  };
  std::string reason;
  auto api = DriverApi::load(&reason);
  if (!api) return fail("no CUDA driver: " + reason);
  if (CUresult r = api->cuInit(0); r != kCudaSuccess) return fail(initFailureReason(*api, r));
  int count = 0;
  if (CUresult r = api->cuDeviceGetCount(&count); r != kCudaSuccess)
    return fail("cuDeviceGetCount failed: " + api->errorName(r));
  if (count == 0) return fail("the CUDA driver sees no device (check nvidia-smi and $CUDA_VISIBLE_DEVICES)");
  if (options.deviceOrdinal < 0 || options.deviceOrdinal >= count)
    return fail("device " + std::to_string(options.deviceOrdinal) + " does not exist: " + std::to_string(count) +
                " device" + (count == 1 ? "" : "s") + " (ordinals 0 to " + std::to_string(count - 1) + ")");

  auto nvrtc = Nvrtc::load(&reason);
  if (!nvrtc && !options.nvrtcOptional)
    return fail("no NVRTC: " + reason + "Install the CUDA NVRTC library or set $CULIFT_NVRTC_PATH");

  // From here on a failing call is not "no GPU" but an error: let it throw.
  CUdevice device = 0;
  api->check(api->cuDeviceGet(&device, options.deviceOrdinal), "cuDeviceGet");
  DeviceInfo info;
  info.ordinal = options.deviceOrdinal;
  char name[256] = {0};
  api->check(api->cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName");
  info.name = name;
  auto attribute = [&](int a) {
    int v = 0;
    api->check(api->cuDeviceGetAttribute(&v, a, device), "cuDeviceGetAttribute");
    return v;
  };
  info.computeMajor = attribute(kAttrComputeCapabilityMajor);
  info.computeMinor = attribute(kAttrComputeCapabilityMinor);
  info.multiprocessors = attribute(kAttrMultiprocessorCount);
  info.limits.maxThreadsPerBlock = static_cast<unsigned>(attribute(kAttrMaxThreadsPerBlock));
  info.limits.maxSharedPerBlock = static_cast<unsigned>(attribute(kAttrMaxSharedMemoryPerBlockOptin));
  for (int a = 0; a < 3; ++a) {
    info.limits.maxBlock[a] = static_cast<unsigned>(attribute(kAttrMaxBlockDimX + a));
    info.limits.maxGrid[a] = static_cast<unsigned>(attribute(kAttrMaxGridDimX + a));
  }
  std::size_t memory = 0;
  api->check(api->cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem_v2");
  info.totalMemory = memory;
  api->check(api->cuDriverGetVersion(&info.driverVersion), "cuDriverGetVersion");

  CUcontext context = nullptr;
  api->check(api->cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
  if (CUresult r = api->cuCtxSetCurrent(context); r != kCudaSuccess) {
    api->cuDevicePrimaryCtxRelease(device);
    api->fail(r, "cuCtxSetCurrent", "making the primary context current");
  }
  return std::make_unique<GpuBackend>(std::move(api), std::move(nvrtc), device, context, std::move(info), options);
}

}  // namespace culift::rt::detail
