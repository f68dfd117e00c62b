// A launch split over the engines of a group (culift/runtime/device_group.hpp).
#include "culift/runtime/device_group.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "culift/runtime/arguments.hpp"
#include "culift/runtime/buffer.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/kernel.hpp"
#include "culift/runtime/split.hpp"

namespace culift::rt {

DeviceGroup::DeviceGroup(std::vector<std::shared_ptr<Engine>> engines) : engines_(std::move(engines)) {
  if (engines_.empty()) throw ArgumentError("a device group needs at least one engine");
  for (std::size_t d = 0; d < engines_.size(); ++d)
    if (!engines_[d]) throw ArgumentError("engine " + std::to_string(d) + " of the device group is null");
}

DeviceGroup DeviceGroup::gpus(const EngineOptions& options, std::vector<int> ordinals) {
  auto start = [&](int d, std::string& why) {
    EngineOptions o = options;
    o.deviceOrdinal = d;
    return Engine::tryCreate(o, &why);
  };
  std::vector<std::shared_ptr<Engine>> engines;
  std::string why;
  if (ordinals.empty()) {
    // Every device the driver lists: ordinals until one does not exist.
    for (int d = 0; std::shared_ptr<Engine> e = start(d, why); ++d) engines.push_back(std::move(e));
    if (engines.empty()) throw Error("a device group of every GPU: no GPU engine could start: " + why);
  } else {
    for (int d : ordinals) {
      std::shared_ptr<Engine> e = start(d, why);
      if (!e) throw Error("a device group: GPU " + std::to_string(d) + " could not start: " + why);
      engines.push_back(std::move(e));
    }
  }
  return DeviceGroup(std::move(engines));
}

namespace {

// The launch arguments of engine `e`'s copy: its buffers, each holding the caller's elements.
std::vector<LaunchArg> copiesOn(Engine& e, std::span<const GroupArg> args, std::vector<std::unique_ptr<Buffer>>& own) {
  std::vector<LaunchArg> out;
  for (const GroupArg& a : args) {
    if (!a.isArray) {
      out.push_back(LaunchArg::of(a.scalar));
      continue;
    }
    auto& b = own.emplace_back(std::make_unique<Buffer>(e, a.element, a.count));
    if (a.count) b->writeBytes(a.input, a.count * byteSize(a.element), 0);
    out.push_back(a.output ? LaunchArg::of(*b) : LaunchArg::of(static_cast<const Buffer&>(*b)));
  }
  return out;
}

}  // namespace

GroupLaunch DeviceGroup::launch(const std::shared_ptr<const Module>& module, std::string_view kernel,
                                const LaunchPlan& plan, std::span<const GroupArg> args) const {
  const std::string name(kernel);
  if (!plan.whole()) throw ArgumentError(name + ": a group launch takes a whole plan, not a part");
  for (const GroupArg& a : args)
    if (a.isArray && a.count && !a.input) throw ArgumentError(name + ": an array argument without elements");
  const auto n = static_cast<std::int64_t>(engines_.size());
  std::vector<std::vector<std::unique_ptr<Buffer>>> buffers(engines_.size());
  std::vector<Kernel> kernels;
  std::vector<std::vector<LaunchArg>> launchArgs;
  GroupLaunch r;
  // Every check first, on every engine: the arguments resolve against the kernel's signature.
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    kernels.push_back(engines_[d]->kernel(module, kernel));
    launchArgs.push_back(copiesOn(*engines_[d], args, buffers[d]));
    resolveLaunchArguments(kernels.back().function(), plan, launchArgs.back(), engines_[d].get());
  }
  if (n == 1) {
    kernels[0].launchArgs(*engines_[0], plan, launchArgs[0]);
    engines_[0]->synchronize();
    r.parts.push_back({0, 0, plan.elements()});
  } else {
    // Every part is launched before any is waited for: the devices run at once.
    std::vector<LaunchPlan> parts;
    for (std::int64_t d = 0; d < n; ++d) {
      LaunchPlan p = plan;
      std::tie(p.partFirst, p.partLast) = rowPart(plan, d, n);
      parts.push_back(p);
      r.parts.push_back({static_cast<std::size_t>(d), p.partFirst, p.partLast});
    }
    auto failed = [&](std::size_t d, const std::exception& e) {
      return Error(name + ": the launch failed on engine " + std::to_string(d) + " of " + std::to_string(n) + " (" +
                   engines_[d]->device().name + "): " + e.what());
    };
    for (std::size_t d = 0; d < engines_.size(); ++d) {
      try {
        kernels[d].launchArgs(*engines_[d], parts[d], launchArgs[d]);
      } catch (const ArgumentError&) {
        throw;
      } catch (const std::exception& e) {
        throw failed(d, e);
      }
    }
    for (std::size_t d = 0; d < engines_.size(); ++d) {
      try {
        engines_[d]->synchronize();
      } catch (const std::exception& e) {
        throw failed(d, e);
      }
    }
  }
  // Gather into the caller's arrays. An engine's buffers are its copies of the array arguments, in order.
  const Function& fn = kernels[0].function();
  std::size_t argument = 0, array = 0;
  for (const KernelParam& p : fn.signature.params) {
    if (p.role == ParamRole::Extent) continue;
    const std::size_t k = argument++;
    if (k >= args.size() || !args[k].isArray) continue;
    const std::size_t copy = array++;
    if (!args[k].output) continue;
    if (p.role != ParamRole::ResultArray && p.role != ParamRole::WritableArray) continue;  // read only
    const GroupArg& a = args[k];
    const std::size_t width = byteSize(a.element);
    auto* dst = static_cast<std::uint8_t*>(a.output);
    auto bufferOf = [&](std::size_t d) -> Buffer& { return *buffers[d][copy]; };
    if (p.role == ParamRole::ResultArray) {
      // `out`: each part's outputs, whole records of consecutive elements.
      const std::size_t perOutput = (p.record ? p.record->elements() : 1) * width;
      for (const GroupLaunch::Part& part : r.parts) {
        const std::size_t from = static_cast<std::size_t>(part.first) * perOutput;
        const std::size_t bytes = static_cast<std::size_t>(part.last - part.first) * perOutput;
        if (bytes) bufferOf(part.engine).readBytes(dst + from, bytes, from);
      }
      continue;
    }
    // A written array: the elements each part changed, applied in the parts' order; an element
    // two parts changed (even to the same value) is a conflict.
    const auto* before = static_cast<const std::uint8_t*>(a.input);
    std::vector<std::uint8_t> original(before, before + a.count * width), now(a.count * width);
    std::vector<std::pair<ElementRun, std::size_t>> all;
    for (const GroupLaunch::Part& part : r.parts) {
      bufferOf(part.engine).readBytes(now.data(), now.size(), 0);
      for (const ElementRun& run : changedRuns(now.data(), original.data(), a.count, width)) {
        std::memcpy(dst + run.first * width, now.data() + run.first * width, run.count * width);
        all.emplace_back(run, part.engine);
      }
    }
    std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first.first < y.first.first; });
    for (std::size_t q = 1; q < all.size(); ++q) {
      const ElementRun& prev = all[q - 1].first;
      if (all[q].first.first < prev.first + prev.count)
        throw Error(name + ": engines " + std::to_string(std::min(all[q - 1].second, all[q].second)) + " and " +
                    std::to_string(std::max(all[q - 1].second, all[q].second)) + " both wrote element " +
                    std::to_string(all[q].first.first) + " of '" + p.name +
                    "': the kernel's writes cannot be split by outputs over devices (an accumulation into shared "
                    "elements); launch it on one engine");
    }
  }
  return r;
}

}  // namespace culift::rt
