#include "culift/runtime/pipeline.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "backend.hpp"
#include "culift/runtime/error.hpp"

namespace culift::rt {

namespace detail {
BackendImpl& backendOf(Engine& engine);
}  // namespace detail

namespace {

bool sameArgument(const LaunchArg& a, const LaunchArg& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == LaunchArg::Kind::Scalar) return a.scalar.type == b.scalar.type && a.scalar.u == b.scalar.u;
  return a.buffer == b.buffer;
}

// CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED (900) to CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD (908): the
// capture was refused or invalidated, not the launch. The pipeline then runs without a graph.
bool isCaptureError(int status) { return status >= 900 && status <= 908; }

}  // namespace

struct Pipeline::Impl {
  struct Launch {
    // A copy keeps the kernel's entries alive, and with them the split-row scratch a graph refers to.
    Kernel kernel;
    LaunchPlan plan;
    std::vector<LaunchArg> args;  // buffers by address, scalars by value
  };

  // What a run launches: one added launch, or two adjacent ones as their fused kernel.
  struct Step {
    Launch launch;
    bool fused = false;
  };

  Impl(Engine& e, const PipelineOptions& o) : engine(e.shared_from_this()), backend(detail::backendOf(e)), options(o) {}
  ~Impl() {
    if (!stream) return;
    // Its work may still run: wait for it (a graph refers to the scratch of the pipeline's stream,
    // which a later stream of the same handle would be given), then free everything.
    try {
      backend.synchronize(stream);
    } catch (...) {  // a failed launch's error is reported where the app synchronizes
    }
    backend.destroyGraph(graph);
    if (done) backend.destroyEvent(done);
    if (ready) backend.destroyEvent(ready);
    backend.destroyStream(stream);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  LaunchTarget own() const {
    LaunchTarget t(*engine);
    t.stream = stream;
    return t;
  }

  void launchEach(const LaunchTarget& target) const {
    for (const Step& s : steps) s.launch.kernel.launchArgs(target, s.launch.plan, s.launch.args);
  }

  // The fused launch of `a` then `b`, where their module has the pair's fused kernel and it takes
  // their shared arguments and both results; nothing otherwise.
  std::optional<Launch> fused(const Launch& a, const Launch& b) const {
    if (a.kernel.module() != b.kernel.module() || a.plan != b.plan || a.args.size() != b.args.size() || a.args.empty())
      return std::nullopt;
    const Function& f = a.kernel.function();
    const Function& g = b.kernel.function();
    const Function* pair = nullptr;
    bool swapped = false;
    for (const Function& k : a.kernel.module()->functions) {
      if (k.fusedOf.size() != 2 || !k.isKernel()) continue;
      if (k.fusedOf[0] == f.name && k.fusedOf[1] == g.name) pair = &k;
      else if (k.fusedOf[0] == g.name && k.fusedOf[1] == f.name) pair = &k, swapped = true;
      if (pair) break;
    }
    if (!pair || f.returnType.isVoid() || g.returnType.isVoid()) return std::nullopt;
    // On the CPU, a kernel with a native launcher runs faster alone than the fused kernel (which
    // has none) runs both.
    if (backend.runsHostLauncher(*a.kernel.module(), f) || backend.runsHostLauncher(*a.kernel.module(), g))
      return std::nullopt;
    const std::size_t shared = a.args.size() - 1;  // then each kernel's `out`
    for (std::size_t k = 0; k < shared; ++k)
      if (!sameArgument(a.args[k], b.args[k])) return std::nullopt;
    std::vector<LaunchArg> args(a.args.begin(), a.args.begin() + static_cast<std::ptrdiff_t>(shared));
    args.push_back(swapped ? b.args.back() : a.args.back());
    args.push_back(swapped ? a.args.back() : b.args.back());
    try {
      resolveLaunchArguments(*pair, a.plan, args, engine.get());
    } catch (const ArgumentError&) {  // a result aliasing an input or the other result
      return std::nullopt;
    }
    return Launch{engine->kernel(a.kernel.module(), pair->name), a.plan, std::move(args)};
  }

  // Records the launches on the pipeline's stream into a graph. Where the driver refuses (no graph
  // entry points, a capture it cannot make), no graph and the reason; a launch that fails for its
  // own sake ends the capture and throws.
  void capture() {
    std::string why;
    if (!backend.beginCapture(stream, &why)) return noGraph(std::move(why));
    try {
      launchEach(own());
    } catch (const CudaError& e) {
      backend.abortCapture(stream);
      if (!isCaptureError(e.status())) throw;
      return noGraph(e.what());
    } catch (...) {
      backend.abortCapture(stream);
      throw;
    }
    graph = backend.endCapture(stream, &why);
    if (!graph.exec) noGraph(std::move(why));
  }
  void noGraph(std::string why) {
    captureFailed = true;
    whyNotCaptured = std::move(why);
  }

  // After add(): the next run is eager again (a new launch's entries are looked up then), the one
  // after captures. An in-flight graph is freed when it completes.
  void dropGraph() {
    backend.destroyGraph(graph);
    graph = {};
    runs = 0;
    captureFailed = false;
    whyNotCaptured.clear();
  }

  std::shared_ptr<Engine> engine;
  detail::BackendImpl& backend;
  PipelineOptions options;
  std::vector<Launch> launches;
  std::vector<Step> steps;
  // The GPU's: the pipeline's stream, the events that order it after and before the run's target,
  // and the graph of its launches.
  void* stream = nullptr;
  void* ready = nullptr;  // recorded on the target before a run; the pipeline's stream waits for it
  void* done = nullptr;   // recorded on the pipeline's stream after a run; the target waits for it
  detail::BackendImpl::CapturedGraph graph;
  unsigned runs = 0;  // since the last add()
  bool captureFailed = false;
  std::string whyNotCaptured;
};

Pipeline::Pipeline(Engine& engine, const PipelineOptions& options) : impl_(std::make_unique<Impl>(engine, options)) {
  if (engine.backend() != Backend::Gpu) return;  // the CPU backend runs launches on the target itself
  // A stream that does not synchronize with the default stream: while a stream that does captures,
  // every use of the default stream, by any thread, fails. The events order runs instead.
  impl_->stream = impl_->backend.createCaptureStream();
  impl_->ready = impl_->backend.createEvent();
  impl_->done = impl_->backend.createEvent();
}

Pipeline::Pipeline(Pipeline&& other) noexcept = default;
Pipeline& Pipeline::operator=(Pipeline&& other) noexcept = default;
Pipeline::~Pipeline() = default;

Pipeline& Pipeline::addArgs(const Kernel& kernel, const LaunchPlan& plan, std::span<const LaunchArg> args) {
  Impl& p = *impl_;
  const std::string position = "launch " + std::to_string(p.launches.size() + 1) + " of the pipeline: ";
  if (&kernel.engine() != p.engine.get())
    throw ArgumentError(position + kernel.name() + ": loaded on another engine than the pipeline's");
  try {
    resolveLaunchArguments(kernel.function(), plan, args, p.engine.get());
  } catch (const ArgumentError& e) {  // its message names the kernel
    throw ArgumentError(position + e.what());
  }
  p.launches.push_back(Impl::Launch{kernel, plan, std::vector<LaunchArg>(args.begin(), args.end())});
  std::optional<Impl::Launch> both;
  if (p.options.fuse && !p.steps.empty() && !p.steps.back().fused)
    both = p.fused(p.steps.back().launch, p.launches.back());
  if (both) p.steps.back() = Impl::Step{std::move(*both), true};
  else p.steps.push_back(Impl::Step{p.launches.back(), false});
  p.dropGraph();
  return *this;
}

void Pipeline::run(const LaunchTarget& target) {
  Impl& p = *impl_;
  if (target.engine != p.engine.get()) throw ArgumentError("Pipeline::run: the target belongs to another engine");
  if (!p.stream) {  // the CPU backend
    p.launchEach(target);
    ++p.runs;
    return;
  }
  if (p.launches.empty()) return;
  detail::BackendImpl& b = p.backend;
  b.recordEvent(p.ready, target.stream);
  b.waitEvent(p.stream, p.ready);
  // The first run looks up the entries and allocates the split-row scratch of the pipeline's
  // stream, neither of which a capture may do; the second captures.
  if (!p.graph.exec && p.runs > 0 && !p.captureFailed) p.capture();
  if (p.graph.exec) b.launchGraph(p.graph, p.stream);
  else p.launchEach(p.own());
  b.recordEvent(p.done, p.stream);
  b.waitEvent(target.stream, p.done);
  ++p.runs;
}

std::size_t Pipeline::size() const { return impl_->launches.size(); }
std::size_t Pipeline::launchesPerRun() const { return impl_->steps.size(); }
std::vector<std::string> Pipeline::fusedKernels() const {
  std::vector<std::string> names;
  for (const Impl::Step& s : impl_->steps)
    if (s.fused) names.push_back(s.launch.kernel.name());
  return names;
}
Engine& Pipeline::engine() const { return *impl_->engine; }
bool Pipeline::captured() const { return impl_->graph.exec != nullptr; }
const std::string& Pipeline::whyNotCaptured() const { return impl_->whyNotCaptured; }

}  // namespace culift::rt
