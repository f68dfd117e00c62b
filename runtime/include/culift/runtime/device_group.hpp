// A launch split over several engines: every GPU of a host, a chosen list, or CPU engines. Each
// engine runs a part of the launch's outputs (whole rows of its first axis, balanced by rows)
// through the kernel's plan entry where its mapping takes parts, else its part wrapper
// (Kernel::launchArgs); every array is copied to every engine (replicated), and what
// the parts write is gathered into the caller's host arrays: `out` by the parts' rows, a void
// kernel's arrays by the elements each part changed. A group of one engine launches the whole plan
// as Kernel::launch does (its plan entries included). docs/scaling-out.md.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/plan.hpp"
#include "culift/runtime/scalar_value.hpp"

namespace culift::rt {

// One argument of a group launch, in the kernel's parameter order (as Kernel::launch takes
// them): a host array the kernel reads, one it writes (its initial values are copied to every
// engine; `out` is one), or a scalar. The arrays must outlive the launch.
struct GroupArg {
  bool isArray = false;
  Scalar element = Scalar::Void;
  const void* input = nullptr;  // the array's elements
  void* output = nullptr;       // where the gathered elements go (a writable array); null: read only
  std::size_t count = 0;        // elements
  ScalarValue scalar;

  template <typename T> static GroupArg array(const std::vector<T>& v) {
    GroupArg a;
    a.isArray = true;
    a.element = rt::scalarOf<T>();
    a.input = v.data();
    a.count = v.size();
    return a;
  }
  template <typename T> static GroupArg array(std::vector<T>& v) {
    GroupArg a = array(static_cast<const std::vector<T>&>(v));
    a.output = v.data();
    return a;
  }
  template <typename T> static GroupArg of(T v) {
    GroupArg a;
    a.scalar = ScalarValue::of(v);
    return a;
  }
};

// What a group launch did: each engine's outputs [first, last) in row-major order.
struct GroupLaunch {
  struct Part {
    std::size_t engine;
    std::int64_t first, last;
  };
  std::vector<Part> parts;
};

class DeviceGroup {
 public:
  // A group of `engines` (at least one; each may be a GPU or the CPU backend, two may share a device).
  explicit DeviceGroup(std::vector<std::shared_ptr<Engine>> engines);
  // An engine per GPU of the host (CUDA's ordinals 0, 1, ...), or `ordinals` only; throws Error
  // naming the device that could not start.
  static DeviceGroup gpus(const EngineOptions& options = {}, std::vector<int> ordinals = {});

  std::size_t size() const { return engines_.size(); }
  Engine& engine(std::size_t d) const { return *engines_.at(d); }

  // Launches `kernel` of `module` over the whole `plan` (LaunchPlan::partFirst / partLast unset),
  // split over the group's engines, and waits for every part. Throws ArgumentError for bad
  // arguments (before any engine runs) and Error naming the engine and the kernel when a part
  // fails, or when two parts changed the same element of an array (an accumulation into shared
  // elements cannot be split by outputs: launch it on one engine).
  GroupLaunch launch(const std::shared_ptr<const Module>& module, std::string_view kernel, const LaunchPlan& plan,
                     std::span<const GroupArg> args) const;

 private:
  std::vector<std::shared_ptr<Engine>> engines_;
};

}  // namespace culift::rt
