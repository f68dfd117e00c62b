#include "culift/runtime/engine.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "backend.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/kernel.hpp"
#include "culift/runtime/registry.hpp"
#include "culift/version.hpp"

namespace culift::rt {

struct Engine::Impl {
  EngineOptions options;
  std::unique_ptr<detail::BackendImpl> backend;
};

namespace detail {
const char* builtInTranslatorVersion() { return culift::kVersion; }
}  // namespace detail

std::string_view name(Backend b) { return b == Backend::Gpu ? "gpu" : "cpu"; }

std::string_view name(CpuCode c) {
  switch (c) {
    case CpuCode::Checked: return "checked";
    case CpuCode::Unchecked: return "unchecked";
    case CpuCode::Interpreted: return "interpreter";
  }
  return "?";
}

bool tuneEntries(const EngineOptions& options) {
  if (!options.tuneEntries) return false;
  const char* env = std::getenv("CULIFT_TUNE");
  if (!env) return true;
  const std::string v = env;
  return v != "0" && v != "off" && v != "false";
}

std::string_view name(MathMode m) {
  switch (m) {
    case MathMode::Default: return "default";
    case MathMode::Strict: return "strict";
    case MathMode::Fast: return "fast";
  }
  return "?";
}

std::string DeviceInfo::toString() const {
  if (driverVersion == 0) return name;
  char memory[32];
  std::snprintf(memory, sizeof memory, "%.1f GiB", static_cast<double>(totalMemory) / (1024.0 * 1024.0 * 1024.0));
  return name + " (sm_" + std::to_string(arch()) + ", " + std::to_string(multiprocessors) + " SMs, " + memory + ")";
}

LaunchTarget::LaunchTarget(Engine& e) : engine(&e), stream(nullptr) {}
LaunchTarget::LaunchTarget(const std::shared_ptr<Engine>& e) : engine(e.get()), stream(nullptr) {
  if (!e) throw Error("launch on a null engine (Engine::tryCreate returned none: use createGpuOrCpu)");
}
LaunchTarget::LaunchTarget(Stream& s) : engine(&s.engine()), stream(s.handle()) {}

Engine::Engine(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Engine::~Engine() = default;

namespace {
EngineOptions withDefaults(EngineOptions options) {
  if (options.translatorVersion.empty()) options.translatorVersion = detail::builtInTranslatorVersion();
  return options;
}
}  // namespace

std::shared_ptr<Engine> Engine::tryCreate(const EngineOptions& options, std::string* whyNot) {
  auto impl = std::make_unique<Impl>();
  impl->options = withDefaults(options);
  impl->backend = detail::createGpuBackend(impl->options, whyNot);
  if (!impl->backend) return nullptr;
  std::shared_ptr<Engine> engine(new Engine(std::move(impl)));
  for (const auto& module : registeredModules()) engine->load(module);
  return engine;
}

std::shared_ptr<Engine> Engine::createCpu(const EngineOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = withDefaults(options);
  std::string why;
  impl->backend = detail::createCpuBackend(impl->options, &why);
  if (!impl->backend) throw Error(why);
  std::shared_ptr<Engine> engine(new Engine(std::move(impl)));
  for (const auto& module : registeredModules()) engine->load(module);
  return engine;
}

std::shared_ptr<Engine> Engine::createGpuOrCpu(const EngineOptions& options, std::string* whyNotGpu) {
  if (auto gpu = tryCreate(options, whyNotGpu)) return gpu;
  return createCpu(options);
}

bool Engine::cpuBackendAvailable() {
  std::string why;
  return detail::createCpuBackend({}, &why) != nullptr;
}

Backend Engine::backend() const { return impl_->backend->kind(); }
const DeviceInfo& Engine::device() const { return impl_->backend->device(); }
const EngineOptions& Engine::options() const { return impl_->options; }
void Engine::load(const std::shared_ptr<const Module>& module) {
  if (!module) throw Error("Engine::load: null module");
  impl_->backend->load(module);
}

Kernel Engine::kernel(const std::shared_ptr<const Module>& module, std::string_view function) {
  if (!module) throw Error("Engine::kernel: null module");
  const Function* fn = module->find(function);
  if (!fn || !fn->isKernel()) {
    std::string known;
    for (const Function* k : module->kernels()) known += (known.empty() ? "" : ", ") + k->name;
    std::string what = fn ? "'" + std::string(function) + "' in " + module->sourcePath +
                                " is a device-only function (no index parameter, no element-wise form)"
                          : "no function '" + std::string(function) + "' in " + module->sourcePath;
    throw Error(what + "; kernels: " + (known.empty() ? "none" : known));
  }
  return Kernel(shared_from_this(), module, fn, impl_->backend->function(module, *fn, fn->kernelName));
}

void Engine::synchronize() { impl_->backend->synchronize(nullptr); }

Stream Engine::createStream() { return Stream(shared_from_this(), impl_->backend->createStream()); }
Event Engine::createEvent() { return Event(shared_from_this(), impl_->backend->createEvent()); }
CompileCache& Engine::cache() { return *impl_->backend->cache(); }
const std::shared_ptr<const Nvrtc>& Engine::nvrtc() const { return impl_->backend->nvrtc(); }
std::vector<CompileRecord> Engine::compileRecords() const { return impl_->backend->compileRecords(); }

Stream::Stream(Stream&& other) noexcept
    : engine_(std::move(other.engine_)), handle_(std::exchange(other.handle_, nullptr)) {}
Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    if (engine_ && handle_) engine_->impl().backend->destroyStream(handle_);
    engine_ = std::move(other.engine_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}
Stream::~Stream() {
  if (engine_ && handle_) engine_->impl().backend->destroyStream(handle_);
}
void Stream::synchronize() { engine_->impl().backend->synchronize(handle_); }

Event::Event(Event&& other) noexcept
    : engine_(std::move(other.engine_)), handle_(std::exchange(other.handle_, nullptr)) {}
Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    if (engine_ && handle_) engine_->impl().backend->destroyEvent(handle_);
    engine_ = std::move(other.engine_);
    handle_ = std::exchange(other.handle_, nullptr);
  }
  return *this;
}
Event::~Event() {
  if (engine_ && handle_) engine_->impl().backend->destroyEvent(handle_);
}
void Event::record(const LaunchTarget& target) {
  if (target.engine != engine_.get()) throw Error("Event::record: the stream belongs to another engine");
  engine_->impl().backend->recordEvent(handle_, target.stream);
}
void Event::synchronize() { engine_->impl().backend->synchronizeEvent(handle_); }
float Event::elapsedMs(const Event& start, const Event& end) {
  if (start.engine_ != end.engine_) throw Error("Event::elapsedMs: the events belong to different engines");
  return start.engine_->impl().backend->elapsedMs(start.handle_, end.handle_);
}

}  // namespace culift::rt

namespace culift::rt::detail {
BackendImpl& backendOf(Engine& engine) { return *engine.impl().backend; }
}  // namespace culift::rt::detail
