#include "culift/runtime/kernel.hpp"

#include "backend.hpp"
#include "culift/runtime/error.hpp"

namespace culift::rt {

namespace detail {
BackendImpl& backendOf(Engine& engine);
}  // namespace detail

void Kernel::launchArgs(const LaunchTarget& target, const LaunchPlan& plan, std::span<const LaunchArg> args) const {
  if (target.engine != engine_.get())
    throw ArgumentError(name() + ": launched on another engine than the one it was loaded on");
  // Every check before the backend sees anything.
  std::vector<ResolvedArg> resolved = resolveLaunchArguments(*function_, plan, args, engine_.get());
  if (plan.empty()) return;  // nothing to cover: no launch (a zero grid is an error to CUDA)
  detail::backendOf(*engine_).launch(*function_, handle_, plan, resolved, target.stream);
}

unsigned Kernel::suggestedBlockSize() const { return detail::backendOf(*engine_).suggestedBlockSize(handle_); }

LaunchPlan Kernel::plan(std::int64_t ni, std::int64_t nj, std::int64_t nk) const {
  const std::int64_t extent[3] = {ni, nj, nk};
  return LaunchPlanner::forThreads(rank(), extent, suggestedBlockSize(), engine_->device().limits);
}

}  // namespace culift::rt
