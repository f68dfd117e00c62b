// A launch split over the engines of a group (culift/runtime/device_group.hpp).
#include "culift/runtime/device_group.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
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

// The launch arguments of engine `e`'s copy: its buffers (copyInputs fills them), in order.
std::vector<LaunchArg> buffersOn(Engine& e, std::span<const GroupArg> args, std::vector<std::unique_ptr<Buffer>>& own) {
  std::vector<LaunchArg> out;
  for (const GroupArg& a : args) {
    if (!a.isArray) {
      out.push_back(LaunchArg::of(a.scalar));
      continue;
    }
    auto& b = own.emplace_back(std::make_unique<Buffer>(e, a.element, a.count));
    out.push_back(a.output ? LaunchArg::of(*b) : LaunchArg::of(static_cast<const Buffer&>(*b)));
  }
  return out;
}

// The caller's elements into an engine's buffers (buffersOn's).
void copyInputs(std::span<const GroupArg> args, const std::vector<std::unique_ptr<Buffer>>& own) {
  std::size_t b = 0;
  for (const GroupArg& a : args) {
    if (!a.isArray) continue;
    Buffer& buffer = *own[b++];
    if (a.count) buffer.writeBytes(a.input, a.count * byteSize(a.element), 0);
  }
}

// The gather of an array a void kernel writes: the elements each part changed from `original`
// (`now(d)` reads engine d's copy into the buffer it is given), applied to `dst` in the parts'
// order; an element two parts changed (even to the same value) is a conflict.
void gatherChanged(const std::string& kernel, const std::string& array, const GroupLaunch& launch,
                   const std::uint8_t* original, std::size_t count, std::size_t width, std::uint8_t* dst,
                   const std::function<void(std::size_t, std::uint8_t*)>& now) {
  std::vector<std::uint8_t> copy(count * width);
  std::vector<std::pair<ElementRun, std::size_t>> all;
  for (const GroupLaunch::Part& part : launch.parts) {
    now(part.engine, copy.data());
    for (const ElementRun& run : changedRuns(copy.data(), original, count, width)) {
      std::memcpy(dst + run.first * width, copy.data() + run.first * width, run.count * width);
      all.emplace_back(run, part.engine);
    }
  }
  std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first.first < y.first.first; });
  for (std::size_t q = 1; q < all.size(); ++q) {
    const ElementRun& prev = all[q - 1].first;
    if (all[q].first.first < prev.first + prev.count)
      throw Error(kernel + ": engines " + std::to_string(std::min(all[q - 1].second, all[q].second)) + " and " +
                  std::to_string(std::max(all[q - 1].second, all[q].second)) + " both wrote element " +
                  std::to_string(all[q].first.first) + " of '" + array +
                  "': the kernel's writes cannot be split by outputs over devices (an accumulation into shared "
                  "elements); launch it on one engine");
  }
}

const Expr* uncast(const Expr* e) {
  while (e && e->kind == ExprKind::Cast && !e->operands.empty()) e = e->operands[0].get();
  return e;
}
bool isVar(const Expr* e, VarId v) {
  e = uncast(e);
  return e && e->kind == ExprKind::VarRef && e->var == v;
}

// Where every read of array parameter `array` of `fn` is at its output's own index — `a[i]` in
// a 1-D kernel, `a[i * C + j]` (either order of the terms and factors) in a 2-D one with C a
// scalar parameter never assigned — a part of the launch reads only its own outputs' elements
// of it: the scalar parameter C (kNone for 1-D) whose value must be the launch's columns.
// Nothing where some read is elsewhere, the array escapes (a call, pointer arithmetic), an
// index parameter or C is assigned, or the kernel has references.
std::optional<VarId> ownIndexReads(const Function& fn, VarId array) {
  if (!fn.body || (fn.mode != IndexMode::Grid1D && fn.mode != IndexMode::Grid2D)) return std::nullopt;
  for (const Var& v : fn.vars)
    if (v.isReference()) return std::nullopt;
  const VarId i = static_cast<VarId>(fn.indexParams.at(0));
  const VarId j = fn.mode == IndexMode::Grid2D ? static_cast<VarId>(fn.indexParams.at(1)) : kNone;
  std::optional<VarId> columns;  // C, once seen
  bool ok = true;
  std::size_t refs = 0, own = 0;
  std::vector<VarId> assigned;
  auto ownIndex = [&](const Expr* e) {
    e = uncast(e);
    if (fn.mode == IndexMode::Grid1D) return isVar(e, i);
    if (!e || e->kind != ExprKind::Binary || e->binaryOp != BinaryOp::Add) return false;
    for (int t = 0; t < 2; ++t) {
      const Expr* product = uncast(e->operands[t].get());
      if (!isVar(e->operands[1 - t].get(), j) || !product || product->kind != ExprKind::Binary ||
          product->binaryOp != BinaryOp::Mul)
        continue;
      for (int f = 0; f < 2; ++f) {
        const Expr* c = uncast(product->operands[1 - f].get());
        if (!isVar(product->operands[f].get(), i) || !c || c->kind != ExprKind::VarRef || c->var >= fn.numParams ||
            fn.vars[c->var].type.isPointer())
          continue;
        if (columns && *columns != c->var) return false;
        columns = c->var;
        return true;
      }
    }
    return false;
  };
  visitExprs(*fn.body, [&](const Expr& e) {
    if (e.kind == ExprKind::VarRef && e.var == array) ++refs;
    if (e.kind == ExprKind::Subscript && isVar(e.operands[0].get(), array)) {
      if (ownIndex(e.operands[1].get())) ++own;
      else ok = false;
    }
    if ((e.kind == ExprKind::Assign || e.kind == ExprKind::CompoundAssign || e.kind == ExprKind::IncDec) &&
        !e.operands.empty())
      if (const Expr* target = uncast(e.operands[0].get()); target && target->kind == ExprKind::VarRef)
        assigned.push_back(target->var);
    return true;
  });
  if (!ok || refs == 0 || refs != own) return std::nullopt;
  for (VarId v : assigned)
    if (v == i || v == j || (columns && v == *columns)) return std::nullopt;
  return fn.mode == IndexMode::Grid2D ? columns : std::optional<VarId>{kNone};
}

// Whether a part of a launch over `plan` reads only its own outputs' elements of the array
// parameter `p` (given the launch's arguments: C must be the launch's columns).
bool sliced(const Function& fn, const KernelParam& p, std::span<const GroupArrayArg> args,
            const std::vector<const KernelParam*>& params, const LaunchPlan& plan) {
  if (p.role == ParamRole::PerElementScalar) return true;
  if (p.role != ParamRole::ReadOnlyArray || p.userParam < 0 || p.record) return false;
  const std::optional<VarId> columns = ownIndexReads(fn, static_cast<VarId>(p.userParam));
  if (!columns) return false;
  if (*columns == kNone) return true;
  for (std::size_t k = 0; k < params.size() && k < args.size(); ++k)
    if (params[k]->userParam == static_cast<int>(*columns) && !args[k].array) {
      const ScalarValue& v = args[k].scalar;
      if (!isInteger(v.type)) return false;
      return (isSigned(v.type) ? v.i : static_cast<std::int64_t>(v.u)) == plan.extent[1];
    }
  return false;
}

}  // namespace

std::vector<GroupArray::Shard> outputShards(const GroupLaunch& launch, const LaunchPlan& plan, std::size_t perOutput) {
  std::vector<GroupArray::Shard> shards;
  auto add = [&](std::size_t engine, std::size_t first, std::size_t count) {
    if (count == 0) return;
    first *= perOutput;
    count *= perOutput;
    if (!shards.empty() && shards.back().engine == engine && shards.back().first + shards.back().count == first)
      shards.back().count += count;
    else shards.push_back({engine, first, count});
  };
  if (!launch.mirrored) {
    for (const GroupLaunch::Part& part : launch.parts)
      add(part.engine, static_cast<std::size_t>(part.first), static_cast<std::size_t>(part.last - part.first));
    return shards;
  }
  // Bands of the triangle: row i of band d holds columns [0, end of d) from engine d (its tiles
  // and the mirror of its band's upper tiles), then band e's columns from engine e, for each
  // later band e (the mirror of e's tiles).
  const auto n = static_cast<std::size_t>(plan.extent[0]);
  for (std::size_t d = 0; d < launch.parts.size(); ++d) {
    const GroupLaunch::Part& part = launch.parts[d];
    const auto first = static_cast<std::size_t>(part.first) / n, last = static_cast<std::size_t>(part.last) / n;
    for (std::size_t i = first; i < last; ++i) {
      add(part.engine, i * n, last);
      for (std::size_t e = d + 1; e < launch.parts.size(); ++e) {
        const GroupLaunch::Part& later = launch.parts[e];
        add(later.engine, i * n + static_cast<std::size_t>(later.first) / n,
            static_cast<std::size_t>(later.last - later.first) / n);
      }
    }
  }
  return shards;
}

std::int64_t DeviceGroup::mirroredTile(const Function& fn, const LaunchPlan& plan) const {
  if (plan.rank != 2 || plan.extent[0] != plan.extent[1]) return 0;
  for (const auto& e : engines_)
    if (e->backend() != Backend::Gpu) return 0;
  const std::optional<PlanChoice> whole = choosePlanEntry(fn, plan, engines_[0]->device());
  if (!whole || fn.planEntries.at(whole->entry).blockMapping() != BlockMapping::Triangle) return 0;
  // The bands start at a multiple of the largest tile: a row of every mirrored entry's tiles.
  unsigned tile = 0;
  for (const PlanEntry& e : fn.planEntries)
    if (e.blockMapping() == BlockMapping::Triangle) tile = std::max(tile, e.tileRows);
  return tile;
}

GroupLaunch splitLayout(const LaunchPlan& plan, std::size_t parts, std::int64_t triangleTile) {
  const auto n = static_cast<std::int64_t>(parts);
  GroupLaunch r;
  if (n <= 1) {
    r.parts.push_back({0, 0, plan.elements()});
    return r;
  }
  // A symmetric kernel whose whole launch takes its mirrored tiles: bands of equal work on the
  // triangle, each stored mirrored; any other kernel: rows balanced by rows.
  r.mirrored = triangleTile > 0 && plan.rank == 2 && plan.extent[0] == plan.extent[1];
  for (std::int64_t d = 0; d < n; ++d) {
    std::pair<std::int64_t, std::int64_t> part = rowPart(plan, d, n);
    if (r.mirrored) {
      part = triangleBand(plan.extent[0], triangleTile, d, n);
      part.first *= plan.extent[1];
      part.second *= plan.extent[1];
    }
    r.parts.push_back({static_cast<std::size_t>(d), part.first, part.second});
  }
  return r;
}

GroupLaunch DeviceGroup::layout(const Function& fn, const LaunchPlan& plan) const {
  return splitLayout(plan, engines_.size(), engines_.size() > 1 ? mirroredTile(fn, plan) : 0);
}

void DeviceGroup::runParts(const std::string& name, std::vector<Kernel>& kernels, const LaunchPlan& plan,
                           const GroupLaunch& layout, const std::vector<std::vector<LaunchArg>>& launchArgs,
                           const std::function<void(std::size_t)>& before,
                           const std::function<void(std::size_t)>& after) const {
  const auto n = static_cast<std::int64_t>(engines_.size());
  if (n == 1 && layout.parts.size() == 1 && layout.parts[0].first == 0 && layout.parts[0].last == plan.elements()) {
    if (before) before(0);
    kernels[0].launchArgs(*engines_[0], plan, launchArgs[0]);  // the whole launch, as the engine runs it
    engines_[0]->synchronize();
    if (after) after(0);
    return;
  }
  std::vector<LaunchPlan> parts;
  for (const GroupLaunch::Part& part : layout.parts) {
    LaunchPlan p = plan;
    p.partFirst = part.first;
    p.partLast = part.last;
    p.partTriangle = layout.mirrored;
    parts.push_back(p);
  }
  auto failed = [&](std::size_t d, const std::exception& e) {
    return Error(name + ": the launch failed on engine " + std::to_string(d) + " of " + std::to_string(n) + " (" +
                 engines_[d]->device().name + "): " + e.what());
  };
  // Before a failure leaves: the engines [from, to) that may still run a part finish it (their
  // buffers go with the failure).
  auto drain = [&](std::size_t from, std::size_t to) {
    for (std::size_t d = from; d < to; ++d) try {
        engines_[d]->synchronize();
      } catch (const std::exception&) {
      }
  };
  // Each engine's inputs, then its part, engine after engine: an engine computes while the next
  // one's inputs are copied. Every part is launched before any is waited for.
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    try {
      if (before) before(d);
      kernels[d].launchArgs(*engines_[d], parts[d], launchArgs[d]);
    } catch (const ArgumentError&) {
      drain(0, d);
      throw;
    } catch (const std::exception& e) {
      drain(0, d);
      throw failed(d, e);
    }
  }
  // Each engine's results as soon as it is done, while the later ones still compute.
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    try {
      engines_[d]->synchronize();
      if (after) after(d);
    } catch (const std::exception& e) {
      drain(d + 1, engines_.size());
      throw failed(d, e);
    }
  }
}

GroupLaunch DeviceGroup::launch(const std::shared_ptr<const Module>& module, std::string_view kernel,
                                const LaunchPlan& plan, std::span<const GroupArg> args) const {
  return launchHost(module, kernel, plan, args, nullptr, 0);
}

GroupLaunch DeviceGroup::launch(const std::shared_ptr<const Module>& module, std::string_view kernel,
                                const LaunchPlan& plan, std::span<const GroupArg> args, const GroupLaunch& split,
                                std::size_t first) const {
  if (first > split.parts.size() || split.parts.size() - first < engines_.size())
    throw ArgumentError(std::string(kernel) + ": a split of " + std::to_string(split.parts.size()) +
                        " parts has no parts [" + std::to_string(first) + ", " +
                        std::to_string(first + engines_.size()) + ") for this group of " +
                        std::to_string(engines_.size()));
  return launchHost(module, kernel, plan, args, &split, first);
}

GroupLaunch DeviceGroup::launchHost(const std::shared_ptr<const Module>& module, std::string_view kernel,
                                    const LaunchPlan& plan, std::span<const GroupArg> args, const GroupLaunch* split,
                                    std::size_t first) const {
  const std::string name(kernel);
  if (!plan.whole()) throw ArgumentError(name + ": a group launch takes a whole plan, not a part");
  for (const GroupArg& a : args)
    if (a.isArray && a.count && !a.input) throw ArgumentError(name + ": an array argument without elements");
  std::vector<std::vector<std::unique_ptr<Buffer>>> buffers(engines_.size());
  std::vector<Kernel> kernels;
  std::vector<std::vector<LaunchArg>> launchArgs;
  // Every check first, on every engine: the arguments resolve against the kernel's signature (the
  // buffers are made here, their elements copied just before each engine's part).
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    kernels.push_back(engines_[d]->kernel(module, kernel));
    launchArgs.push_back(buffersOn(*engines_[d], args, buffers[d]));
    resolveLaunchArguments(kernels.back().function(), plan, launchArgs.back(), engines_[d].get());
  }
  // The whole launch's parts, and this group's: engine d's part first + d of them.
  const GroupLaunch all = split ? *split : layout(kernels[0].function(), plan);
  GroupLaunch r;
  r.mirrored = all.mirrored;
  for (std::size_t d = 0; d < engines_.size(); ++d)
    r.parts.push_back({d, all.parts[first + d].first, all.parts[first + d].last});
  // Gather into the caller's arrays. An engine's buffers are its copies of the array arguments, in order.
  const std::vector<const KernelParam*> params = argumentParams(kernels[0].function());
  struct Gathered {
    std::size_t arg, copy;  // the argument, and its buffer among an engine's
  };
  std::vector<Gathered> outs, changed;
  std::size_t array = 0;
  for (std::size_t k = 0; k < params.size() && k < args.size(); ++k) {
    if (!args[k].isArray) continue;
    const std::size_t copy = array++;
    if (!args[k].output) continue;
    if (params[k]->role == ParamRole::ResultArray) outs.push_back({k, copy});
    else if (params[k]->role == ParamRole::WritableArray) changed.push_back({k, copy});  // else read only
  }
  // `out`: where each part wrote it, whole records of consecutive elements, read from each engine
  // as soon as it is done.
  std::vector<std::vector<GroupArray::Shard>> shards;
  for (const Gathered& g : outs)
    shards.push_back(outputShards(all, plan, params[g.arg]->record ? params[g.arg]->record->elements() : 1));
  auto readOut = [&](std::size_t d) {
    for (std::size_t o = 0; o < outs.size(); ++o) {
      const GroupArg& a = args[outs[o].arg];
      const std::size_t width = byteSize(a.element);
      auto* dst = static_cast<std::uint8_t*>(a.output);
      for (const GroupArray::Shard& s : shards[o])
        if (s.count && s.engine == first + d)
          buffers[d][outs[o].copy]->readBytes(dst + s.first * width, s.count * width, s.first * width);
    }
  };
  runParts(
      name, kernels, plan, r, launchArgs, [&](std::size_t d) { copyInputs(args, buffers[d]); }, readOut);
  // A void kernel's arrays: the elements each part changed.
  for (const Gathered& g : changed) {
    const GroupArg& a = args[g.arg];
    const std::size_t width = byteSize(a.element);
    const auto* before = static_cast<const std::uint8_t*>(a.input);
    const std::vector<std::uint8_t> original(before, before + a.count * width);
    gatherChanged(name, params[g.arg]->name, r, original.data(), a.count, width, static_cast<std::uint8_t*>(a.output),
                  [&](std::size_t d, std::uint8_t* into) { buffers[d][g.copy]->readBytes(into, a.count * width, 0); });
  }
  return r;
}

// ---- arrays kept on the group's engines ---------------------------------------------------------

GroupArray::GroupArray(const DeviceGroup& group, Scalar element, std::size_t count) : element_(element), count_(count) {
  if (byteSize(element) == 0) throw ArgumentError("a group array needs a scalar element type");
  for (std::size_t d = 0; d < group.size(); ++d) {
    copies_.push_back(std::make_unique<Buffer>(group.engine(d), element, count));
    engines_.push_back(&group.engine(d));
  }
}

void GroupArray::write(const void* values, std::size_t count) {
  if (count != count_)
    throw ArgumentError("a group array of " + std::to_string(count_) + " elements written with " +
                        std::to_string(count));
  if (count_) {
    if (!values) throw ArgumentError("a group array written from no elements");
    for (const auto& c : copies_) c->writeBytes(values, count_ * byteSize(element_), 0);
  }
  shards_.clear();
}

void GroupArray::read(void* values) const {
  const std::size_t width = byteSize(element_);
  if (shards_.empty()) {
    if (count_) copies_[0]->readBytes(values, count_ * width, 0);
    return;
  }
  auto* dst = static_cast<std::uint8_t*>(values);
  for (const Shard& s : shards_)
    if (s.count) copies_[s.engine]->readBytes(dst + s.first * width, s.count * width, s.first * width);
}

void GroupArray::copyMissing(std::size_t engine, std::size_t first, std::size_t last) {
  const std::size_t width = byteSize(element_);
  for (const Shard& s : shards_) {
    const std::size_t from = std::max(s.first, first), to = std::min(s.first + s.count, last);
    if (s.engine != engine && from < to)
      copies_[engine]->copyFrom(*copies_[s.engine], (to - from) * width, from * width, from * width);
  }
}

void GroupArray::replicate() {
  if (shards_.empty()) return;
  for (std::size_t d = 0; d < copies_.size(); ++d) copyMissing(d, 0, count_);
  shards_.clear();
}

GroupLaunch DeviceGroup::launch(const std::shared_ptr<const Module>& module, std::string_view kernel,
                                const LaunchPlan& plan, std::span<const GroupArrayArg> args) const {
  const std::string name(kernel);
  if (!plan.whole()) throw ArgumentError(name + ": a group launch takes a whole plan, not a part");
  std::vector<Kernel> kernels;
  for (std::size_t d = 0; d < engines_.size(); ++d) kernels.push_back(engines_[d]->kernel(module, kernel));
  const std::vector<const KernelParam*> params = argumentParams(kernels[0].function());
  for (std::size_t k = 0; k < args.size(); ++k) {
    const GroupArray* a = args[k].array;
    if (!a) continue;
    if (a->copies_.size() != engines_.size())
      throw ArgumentError(name + ": argument " + std::to_string(k + 1) + " is an array of a group of " +
                          std::to_string(a->copies_.size()) + " engines, not of this group of " +
                          std::to_string(engines_.size()));
    for (std::size_t d = 0; d < engines_.size(); ++d)
      if (a->engines_[d] != engines_[d].get())
        throw ArgumentError(name + ": argument " + std::to_string(k + 1) + " is an array of another group");
  }
  auto argsOn = [&](std::size_t d) {
    std::vector<LaunchArg> out;
    for (std::size_t k = 0; k < args.size(); ++k) {
      const GroupArrayArg& a = args[k];
      if (!a.array) {
        out.push_back(LaunchArg::of(a.scalar));
        continue;
      }
      const bool written = k < params.size() &&
                           (params[k]->role == ParamRole::ResultArray || params[k]->role == ParamRole::WritableArray);
      Buffer& b = *a.array->copies_[d];
      out.push_back(written ? LaunchArg::of(b) : LaunchArg::of(static_cast<const Buffer&>(b)));
    }
    return out;
  };
  std::vector<std::vector<LaunchArg>> launchArgs;
  for (std::size_t d = 0; d < engines_.size(); ++d) {
    launchArgs.push_back(argsOn(d));
    resolveLaunchArguments(kernels[d].function(), plan, launchArgs.back(), engines_[d].get());
  }
  const Function& fn = kernels[0].function();
  const GroupLaunch r = layout(fn, plan);
  // A sharded array is replicated first (`out` excepted: only written), or where each part reads
  // only its own outputs' elements of it (sliced: ownIndexReads, an element-wise kernel's
  // per-element inputs), each engine gets the elements of its part it does not hold. A void
  // kernel's written arrays start from their values before the launch.
  std::vector<std::pair<std::size_t, std::vector<std::uint8_t>>> before;
  for (std::size_t k = 0; k < args.size() && k < params.size(); ++k) {
    GroupArray* a = args[k].array;
    if (!a || params[k]->role == ParamRole::ResultArray) continue;
    if (!a->replicated() && sliced(fn, *params[k], args, params, plan) &&
        a->count_ >= static_cast<std::size_t>(plan.elements())) {
      for (const GroupLaunch::Part& part : r.parts)
        a->copyMissing(part.engine, static_cast<std::size_t>(part.first), static_cast<std::size_t>(part.last));
      continue;
    }
    a->replicate();
    if (params[k]->role == ParamRole::WritableArray && engines_.size() > 1) {
      std::vector<std::uint8_t> bytes(a->count_ * byteSize(a->element_));
      a->read(bytes.data());
      before.emplace_back(k, std::move(bytes));
    }
  }
  runParts(name, kernels, plan, r, launchArgs);
  if (engines_.size() == 1) {
    for (const GroupArrayArg& a : args)
      if (a.array) a.array->shards_.clear();
    return r;
  }
  for (std::size_t k = 0; k < args.size() && k < params.size(); ++k) {
    GroupArray* a = args[k].array;
    if (!a || params[k]->role != ParamRole::ResultArray) continue;
    // `out` stays where each engine wrote its part: whole records of consecutive elements.
    a->shards_ = outputShards(r, plan, params[k]->record ? params[k]->record->elements() : 1);
  }
  for (auto& [k, original] : before) {
    // The elements each part changed, gathered and written back to every engine.
    GroupArray& a = *args[k].array;
    const std::size_t width = byteSize(a.element_);
    std::vector<std::uint8_t> result = original;
    gatherChanged(name, params[k]->name, r, original.data(), a.count_, width, result.data(),
                  [&](std::size_t d, std::uint8_t* into) { a.copies_[d]->readBytes(into, a.count_ * width, 0); });
    a.write(result.data(), a.count_);
  }
  return r;
}

}  // namespace culift::rt
