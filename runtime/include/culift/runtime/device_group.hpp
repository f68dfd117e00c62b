// A launch split over several engines: every GPU of a host, a chosen list, or CPU engines. Each
// engine runs a part of the launch's outputs (whole rows of its first axis, balanced by rows)
// through the kernel's plan entry where its mapping takes parts, else its part wrapper
// (Kernel::launchArgs); every array is copied to every engine (replicated), engine after engine,
// each just before its part is launched (an engine computes while the next one's inputs are
// copied), and what the parts write is gathered into the caller's host arrays (`out` from each
// engine as soon as it is done, while the later ones compute): `out` by the parts' rows, a void
// kernel's arrays by the elements each part changed. A group of one engine launches the whole plan
// as Kernel::launch does (its plan entries included). docs/scaling-out.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "culift/ast/module.hpp"
#include "culift/runtime/buffer.hpp"
#include "culift/runtime/engine.hpp"
#include "culift/runtime/error.hpp"
#include "culift/runtime/kernel.hpp"
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

// What a group launch did: each engine's outputs [first, last) in row-major order. `mirrored`:
// the parts were bands of a symmetric kernel's triangle (LaunchPlan::partTriangle, bands of equal
// work: triangleBand), each engine writing its rows' tiles on and below the diagonal and their
// mirror (outputShards says which engine wrote which outputs).
struct GroupLaunch {
  struct Part {
    std::size_t engine;
    std::int64_t first, last;
  };
  std::vector<Part> parts;
  bool mirrored = false;
};

class GroupArray;
struct GroupArrayArg;

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
  // This group's share of a launch split wider than the group (over the engines of every rank of
  // an MPI job: culift/mpi.hpp): engine d runs part `first + d` of `split` (splitLayout), and only
  // what those parts wrote is gathered into the caller's arrays (`out`'s outputs they wrote, the
  // elements of a void kernel's arrays they changed); the rest of the arrays is left as it is.
  // Returns the group's own parts, engine d's part d. Throws as the launch above does, and
  // ArgumentError where `split` has no parts [first, first + size()).
  GroupLaunch launch(const std::shared_ptr<const Module>& module, std::string_view kernel, const LaunchPlan& plan,
                     std::span<const GroupArg> args, const GroupLaunch& split, std::size_t first) const;
  // The tile rows of the mirrored tiles a whole launch of `fn` over `plan` takes where every engine of
  // the group is a GPU (the bands of its triangle then split it: splitLayout); 0 otherwise.
  std::int64_t mirroredTile(const Function& fn, const LaunchPlan& plan) const;

  // The same over arrays kept on the engines (GroupArray): nothing is copied from or to the host
  // but what a sharded input's replication and a void kernel's written arrays need. `out` is left
  // sharded, each engine holding its part's outputs (GroupArray::read gathers them); an array
  // the kernel reads, sharded by an earlier launch, is replicated first; the elements a void
  // kernel's parts changed are gathered (conflicts named as above) and written to every engine.
  GroupLaunch launch(const std::shared_ptr<const Module>& module, std::string_view kernel, const LaunchPlan& plan,
                     std::span<const GroupArrayArg> args) const;

 private:
  // Each engine's part of a launch of `fn` over `plan` (rows, or bands of a symmetric kernel's
  // triangle); then the parts launched at once and waited for.
  GroupLaunch layout(const Function& fn, const LaunchPlan& plan) const;
  // `before(d)` runs just before engine d's part is launched (its inputs copied: the engine before
  // it computes meanwhile), `after(d)` once engine d is done (its results read: the later engines
  // compute meanwhile).
  void runParts(const std::string& name, std::vector<Kernel>& kernels, const LaunchPlan& plan,
                const GroupLaunch& layout, const std::vector<std::vector<LaunchArg>>& launchArgs,
                const std::function<void(std::size_t)>& before = {},
                const std::function<void(std::size_t)>& after = {}) const;
  // The launch over host arrays: the group's parts of `split` from `first` on, or of its own layout.
  GroupLaunch launchHost(const std::shared_ptr<const Module>& module, std::string_view kernel, const LaunchPlan& plan,
                         std::span<const GroupArg> args, const GroupLaunch* split, std::size_t first) const;
  std::vector<std::shared_ptr<Engine>> engines_;
};

// An array with a copy on every engine of a group, kept there across group launches: written once
// and read by every engine's parts (replicated), or, once a launch wrote it as `out`, sharded: each
// engine holds the current values of its part's elements only, until read() gathers them or
// replicate() copies every part to every engine (through the host).
class GroupArray {
 public:
  GroupArray(const DeviceGroup& group, Scalar element, std::size_t count);  // zeros on every engine
  template <typename T> GroupArray(const DeviceGroup& group, const std::vector<T>& values)
      : GroupArray(group, scalarOf<T>(), values.size()) {
    write(values.data(), values.size());
  }

  Scalar element() const { return element_; }
  std::size_t size() const { return count_; }
  Buffer& on(std::size_t engine) const { return *copies_.at(engine); }  // engine d's copy

  // The elements [first, first + count) whose current values engine `engine` holds.
  struct Shard {
    std::size_t engine;
    std::size_t first, count;
  };
  // Empty where every copy holds every element.
  const std::vector<Shard>& shards() const { return shards_; }
  bool replicated() const { return shards_.empty(); }

  // `count` elements (the array's size) to every engine's copy: replicated.
  void write(const void* values, std::size_t count);
  template <typename T> void write(const std::vector<T>& values) {
    if (scalarOf<T>() != element_) throw ArgumentError("a group array written with elements of another type");
    write(values.data(), values.size());
  }
  // Every element, each from an engine that holds its current value.
  void read(void* values) const;
  template <typename T> std::vector<T> read() const {
    if (scalarOf<T>() != element_) throw ArgumentError("a group array read as elements of another type");
    std::vector<T> v(count_);
    read(v.data());
    return v;
  }
  void replicate();

 private:
  friend class DeviceGroup;
  // Copies to engine `engine` the elements of [first, last) that other engines hold: device to
  // device between GPUs, through the host otherwise.
  void copyMissing(std::size_t engine, std::size_t first, std::size_t last);
  Scalar element_;
  std::size_t count_;
  std::vector<std::unique_ptr<Buffer>> copies_;
  std::vector<const Engine*> engines_;
  std::vector<Shard> shards_;
};

// The parts of a launch over `plan` split `parts` ways, part p's engine p: whole rows of its first
// axis, balanced by rows (rowPart), or, where `triangleTile` > 0 and there are several parts, the
// bands of a symmetric kernel's triangle, of equal work (triangleBand; the tile rows of its
// mirrored tiles: DeviceGroup::mirroredTile). A DeviceGroup's own launches split this way over its
// engines, a launch over MPI ranks over every rank's engines.
GroupLaunch splitLayout(const LaunchPlan& plan, std::size_t parts, std::int64_t triangleTile);

// Where the outputs of a group launch over `plan` are (`perOutput` elements each): runs of
// consecutive elements, each with the engine that wrote it, in order.
std::vector<GroupArray::Shard> outputShards(const GroupLaunch& launch, const LaunchPlan& plan, std::size_t perOutput);

// One argument of a launch over a group's arrays, in the kernel's parameter order: an array of
// the group (any role: read, written, `out`), or a scalar.
struct GroupArrayArg {
  GroupArray* array = nullptr;
  ScalarValue scalar;
  static GroupArrayArg of(GroupArray& a) { return {&a, {}}; }
  template <typename T> static GroupArrayArg of(T v) { return {nullptr, ScalarValue::of(v)}; }
};

}  // namespace culift::rt
