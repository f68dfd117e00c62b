#include "culift/runtime/raw_module.hpp"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>

#include "culift/runtime/compiler.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/nvrtc.hpp"
#include "driver_api.hpp"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace culift::rt {

using namespace detail;

// The module holds its own reference on the device's primary context (the one the engine's
// GPU backend uses), so it stays valid however the engine and the module are torn down.
struct RawModule::Impl {
  std::shared_ptr<Engine> engine;
  std::shared_ptr<const DriverApi> api;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUmodule module = nullptr;
  CompileRecord record;
  mutable std::mutex mutex;
  mutable std::map<std::string, CUfunction, std::less<>> functions;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    // Errors cannot be reported here (a fault may have left the context unusable): ignore them.
    if (!api) return;
    if (context) api->cuCtxSetCurrent(context);
    if (module) api->cuModuleUnload(module);
    if (context) api->cuDevicePrimaryCtxRelease(device);
  }

  void makeCurrent() const { api->check(api->cuCtxSetCurrent(context), "cuCtxSetCurrent"); }

  // Null when the module has no such kernel; throws for any other failure.
  CUfunction find(std::string_view name) const {
    std::lock_guard lock(mutex);
    if (auto it = functions.find(name); it != functions.end()) return it->second;
    makeCurrent();
    CUfunction f = nullptr;
    const std::string key(name);
    constexpr CUresult kNotFound = 500;  // CUDA_ERROR_NOT_FOUND
    CUresult r = api->cuModuleGetFunction(&f, module, key.c_str());
    if (r == kNotFound) return nullptr;
    if (r != kCudaSuccess) {
      const std::string context = "looking up kernel '" + key + "' of " + record.module;
      api->fail(r, "cuModuleGetFunction", context.c_str());
    }
    functions.emplace(key, f);
    return f;
  }
};

std::vector<std::string> RawModule::compileOptions(const EngineOptions& options,
                                                   const std::vector<std::string>& extra) {
  // The GPU backend compiles lifted modules with these too, so both kinds compile alike.
  std::vector<std::string> o;
  if (options.math == MathMode::Strict) o.emplace_back("--fmad=false");
  if (options.math == MathMode::Fast) o.emplace_back("--use_fast_math");
  if (options.lineInfo) o.emplace_back("-lineinfo");
  if (options.deviceAsserts) o.emplace_back("-DCULIFT_DEVICE_ASSERTS");
  o.insert(o.end(), options.extraCompileOptions.begin(), options.extraCompileOptions.end());
  if (const char* env = std::getenv("CULIFT_NVRTC_OPTIONS"); env && *env) {
    llvm::SmallVector<llvm::StringRef, 8> words;
    llvm::StringRef(env).split(words, ' ', -1, false);
    for (llvm::StringRef w : words) o.emplace_back(w.str());
  }
  o.insert(o.end(), extra.begin(), extra.end());
  return o;
}

RawModule::RawModule(Engine& engine, std::string source, std::string programName, std::vector<std::string> extraOptions)
    : impl_(std::make_unique<Impl>()) {
  if (engine.backend() != Backend::Gpu)
    throw Error("RawModule '" + programName + "': hand-written CUDA runs on the GPU backend only; this engine is the " +
                engine.device().name + " (create it with Engine::tryCreate on a machine with a GPU)");
  Impl& m = *impl_;
  m.engine = engine.shared_from_this();
  std::string why;
  m.api = DriverApi::load(&why);
  if (!m.api) throw Error("RawModule '" + programName + "': no CUDA driver: " + why);

  if (!engine.nvrtc())
    throw Error("RawModule '" + programName +
                "': no NVRTC to compile it (the engine was created with "
                "EngineOptions::nvrtcOptional on a machine without NVRTC)");
  const Nvrtc& nvrtc = *engine.nvrtc();
  CompileRequest request;
  request.source = std::move(source);
  request.programName = programName;
  request.options = compileOptions(engine.options(), extraOptions);
  request.translatorVersion = engine.options().translatorVersion;
  CompiledImage compiled = compileImage(nvrtc, &engine.cache(), request, chooseTarget(nvrtc, engine.device().arch()));
  m.record = {programName,
              compiled.target.name(),
              compiled.fromCache,
              compiled.milliseconds,
              compiled.options,
              compiled.log,
              false,
              {}};

  m.api->check(m.api->cuDeviceGet(&m.device, engine.device().ordinal), "cuDeviceGet");
  m.api->check(m.api->cuDevicePrimaryCtxRetain(&m.context, m.device), "cuDevicePrimaryCtxRetain");
  m.makeCurrent();
  char errorLog[8192] = {0};
  int jitOptions[] = {kJitErrorLogBuffer, kJitErrorLogBufferSizeBytes};
  void* jitValues[] = {errorLog, reinterpret_cast<void*>(static_cast<std::uintptr_t>(sizeof errorLog))};
  CUresult r = m.api->cuModuleLoadDataEx(&m.module, compiled.image->data(), 2, jitOptions, jitValues);
  if (r != kCudaSuccess) {
    m.module = nullptr;
    std::string context = "loading the " + compiled.target.name() + " image of " + programName;
    if (errorLog[0]) context += "; JIT log: " + std::string(errorLog);
    m.api->fail(r, "cuModuleLoadDataEx", context.c_str());
  }
}

RawModule::RawModule(RawModule&& other) noexcept = default;
RawModule& RawModule::operator=(RawModule&& other) noexcept = default;
RawModule::~RawModule() = default;

bool RawModule::hasKernel(std::string_view kernel) const { return impl_->find(kernel) != nullptr; }

void RawModule::launch(std::string_view kernel, Dim3 grid, Dim3 block, unsigned sharedBytes, void** args,
                       const Stream* stream) const {
  const Impl& m = *impl_;
  if (stream && &stream->engine() != m.engine.get())
    throw Error("RawModule::launch: the stream belongs to another engine");
  CUfunction f = m.find(kernel);
  if (!f)
    throw Error("RawModule '" + m.record.module + "' has no kernel '" + std::string(kernel) +
                "' (is it declared extern \"C\" __global__?)");
  m.makeCurrent();
  CUresult r = m.api->cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, sharedBytes,
                                     static_cast<CUstream>(stream ? stream->handle() : nullptr), args, nullptr);
  if (r != kCudaSuccess) {
    const std::string context = "launching " + std::string(kernel) + " (grid " + std::to_string(grid.x) + "x" +
                                std::to_string(grid.y) + "x" + std::to_string(grid.z) + ", block " +
                                std::to_string(block.x) + "x" + std::to_string(block.y) + "x" +
                                std::to_string(block.z) + ")";
    m.api->fail(r, "cuLaunchKernel", context.c_str());
  }
}

const CompileRecord& RawModule::record() const { return impl_->record; }
Engine& RawModule::engine() const { return *impl_->engine; }

}  // namespace culift::rt
