// A launch split over the engines of a group (culift/runtime/device_group.hpp).
#include "culift/runtime/device_group.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
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

// The elements a part of a launch reads of an array parameter, bounded by interval arithmetic over
// the kernel's reads of it: the part's rows [first, last) of axis 0 and the whole of the other axes
// for the index parameters, the launch's values for scalar parameters never assigned, the bounds
// of counted loops (`for (int k = a; k < b; ++k)`, either direction, step 1) for their counters,
// the initializer for a local never assigned after it, both arms of a conditional; sums,
// differences, products, and quotients, remainders and right shifts by positive constants. Every
// read of the array counts, whether or not its branch runs, so the bounds may take more elements
// than the part reads, never fewer. Nothing where a read's index is beyond these (a value loaded
// from memory, a division by a value the launch does not fix, a counter assigned in its loop), the array escapes (a
// call, pointer arithmetic), an index parameter is assigned, or the kernel has references.
class ReadBounds {
 public:
  struct Interval {
    std::int64_t lo, hi;
  };

  ReadBounds(const Function& fn, std::span<const GroupArrayArg> args, const std::vector<const KernelParam*>& params,
             const LaunchPlan& plan)
      : fn_(fn), args_(args), params_(params), plan_(plan) {
    if (!fn.body) return;
    for (const Var& v : fn.vars)
      if (v.isReference()) return;
    assigned_.assign(fn.vars.size(), 0);
    inits_.assign(fn.vars.size(), nullptr);
    loops_.assign(fn.vars.size(), nullptr);
    visitExprs(*fn.body, [&](const Expr& e) {
      if ((e.kind == ExprKind::Assign || e.kind == ExprKind::CompoundAssign || e.kind == ExprKind::IncDec) &&
          !e.operands.empty())
        if (const Expr* target = uncast(e.operands[0].get()); target && target->kind == ExprKind::VarRef)
          ++assigned_[target->var];
      return true;
    });
    collect(*fn.body);
    for (int a : fn.indexParams)
      if (a >= 0 && assigned_[static_cast<std::size_t>(a)] != 0) return;
    usable_ = true;
  }

  // The least and the greatest element of `array` that rows [first, last) of the launch read
  // (inclusive), clipped to [0, count); nothing where unbounded (or never read: nothing to copy
  // then, as where every element is).
  std::optional<Interval> rows(VarId array, std::int64_t first, std::int64_t last, std::size_t count) {
    if (!usable_ || first >= last || count == 0) return std::nullopt;
    first_ = first;
    last_ = last;
    bool ok = true;
    std::size_t refs = 0, reads = 0;
    std::optional<Interval> all;
    visitExprs(*fn_.body, [&](const Expr& e) {
      if (e.kind == ExprKind::VarRef && e.var == array) ++refs;
      if (e.kind == ExprKind::Subscript && isVar(e.operands[0].get(), array)) {
        ++reads;
        const std::optional<Interval> at = eval(e.operands[1].get(), 0);
        if (!at) ok = false;
        else all = all ? Interval{std::min(all->lo, at->lo), std::max(all->hi, at->hi)} : *at;
      }
      return ok;
    });
    if (!ok || refs == 0 || refs != reads || !all) return std::nullopt;
    const auto end = static_cast<std::int64_t>(count) - 1;
    return Interval{std::clamp<std::int64_t>(all->lo, 0, end), std::clamp<std::int64_t>(all->hi, 0, end)};
  }

 private:
  static constexpr std::int64_t kLimit = std::int64_t{1} << 62;
  static constexpr int kDepth = 32;  // initializers within initializers, at most

  // Each local's initializer and each counted loop's header, once.
  void collect(const Stmt& s) {
    if (s.kind == StmtKind::Decl && s.expr) inits_[s.var] = s.expr.get();
    if (s.kind == StmtKind::For && s.init) {
      const Stmt* init = s.init.get();
      if (init->kind == StmtKind::Block && !init->scoped && init->stmts.size() == 1) init = init->stmts[0].get();
      if (init->kind == StmtKind::Decl && init->expr) loops_[init->var] = &s;
    }
    for (const Stmt* c : {s.init.get(), s.then.get(), s.otherwise.get(), s.body.get()})
      if (c) collect(*c);
    for (const StmtPtr& c : s.stmts) collect(*c);
  }

  static std::optional<Interval> fit(__int128 lo, __int128 hi, Scalar type) {
    if (lo < -kLimit || hi > kLimit) return std::nullopt;
    if (isInteger(type) && byteSize(type) < 8) {
      const unsigned bits = 8 * byteSize(type);
      const __int128 least = isSigned(type) ? -(__int128{1} << (bits - 1)) : 0;
      const __int128 most = isSigned(type) ? (__int128{1} << (bits - 1)) - 1 : (__int128{1} << bits) - 1;
      if (lo < least || hi > most) return std::nullopt;  // it would wrap (or overflow)
    } else if (isInteger(type) && !isSigned(type) && lo < 0) {
      return std::nullopt;
    }
    return Interval{static_cast<std::int64_t>(lo), static_cast<std::int64_t>(hi)};
  }

  std::optional<Interval> variable(VarId v, int depth) {
    for (std::size_t a = 0; a < fn_.indexParams.size(); ++a)
      if (fn_.indexParams[a] == static_cast<int>(v)) {
        if (a == 0) return Interval{first_, last_ - 1};
        if (a >= 3 || plan_.extent[a] <= 0) return std::nullopt;
        return Interval{0, plan_.extent[a] - 1};
      }
    if (v < fn_.numParams) {
      if (assigned_[v] != 0) return std::nullopt;
      for (std::size_t k = 0; k < params_.size() && k < args_.size(); ++k)
        if (params_[k]->userParam == static_cast<int>(v) && !args_[k].array) {
          const ScalarValue& x = args_[k].scalar;
          if (!isInteger(x.type)) return std::nullopt;
          if (!isSigned(x.type) && x.u > static_cast<std::uint64_t>(kLimit)) return std::nullopt;
          const std::int64_t value = isSigned(x.type) ? x.i : static_cast<std::int64_t>(x.u);
          return Interval{value, value};
        }
      return std::nullopt;
    }
    if (const Stmt* loop = loops_[v]) return counter(*loop, v, depth);
    if (assigned_[v] == 0 && inits_[v]) return eval(inits_[v], depth + 1);
    return std::nullopt;
  }

  // A counted loop's counter: assigned by its increment alone (++, --, += 1, -= 1), its condition
  // comparing it with a bound (either side).
  std::optional<Interval> counter(const Stmt& loop, VarId v, int depth) {
    if (assigned_[v] != 1 || !loop.cond || !loop.expr) return std::nullopt;
    const Stmt* init = loop.init.get();
    if (init->kind == StmtKind::Block) init = init->stmts[0].get();
    int step = 0;
    const Expr& inc = *loop.expr;
    if (inc.kind == ExprKind::IncDec && isVar(inc.operands[0].get(), v))
      step = inc.incDecOp == IncDecOp::PreInc || inc.incDecOp == IncDecOp::PostInc ? 1 : -1;
    if (inc.kind == ExprKind::CompoundAssign && isVar(inc.operands[0].get(), v) &&
        (inc.binaryOp == BinaryOp::Add || inc.binaryOp == BinaryOp::Sub)) {
      const std::optional<Interval> d = eval(inc.operands[1].get(), depth + 1);
      if (d && d->lo == 1 && d->hi == 1) step = inc.binaryOp == BinaryOp::Add ? 1 : -1;
    }
    const Expr* cond = uncast(loop.cond.get());
    if (step == 0 || !cond || cond->kind != ExprKind::Binary) return std::nullopt;
    BinaryOp op = cond->binaryOp;
    const Expr* bound = cond->operands[1].get();
    if (!isVar(cond->operands[0].get(), v)) {
      if (!isVar(cond->operands[1].get(), v)) return std::nullopt;
      bound = cond->operands[0].get();  // b > k is k < b
      op = op == BinaryOp::Lt   ? BinaryOp::Gt
           : op == BinaryOp::Gt ? BinaryOp::Lt
           : op == BinaryOp::Le ? BinaryOp::Ge
           : op == BinaryOp::Ge ? BinaryOp::Le
                                : BinaryOp::Add;
    }
    const std::optional<Interval> from = eval(init->expr.get(), depth + 1), to = eval(bound, depth + 1);
    if (!from || !to) return std::nullopt;
    if (step > 0 && op == BinaryOp::Lt) return Interval{from->lo, std::max(from->lo, to->hi - 1)};
    if (step > 0 && op == BinaryOp::Le) return Interval{from->lo, std::max(from->lo, to->hi)};
    if (step < 0 && op == BinaryOp::Gt) return Interval{std::min(from->hi, to->lo + 1), from->hi};
    if (step < 0 && op == BinaryOp::Ge) return Interval{std::min(from->hi, to->lo), from->hi};
    return std::nullopt;
  }

  std::optional<Interval> eval(const Expr* e, int depth) {
    if (!e || depth > kDepth) return std::nullopt;
    const Scalar type = e->type.scalar;
    switch (e->kind) {
      case ExprKind::IntLiteral: {
        const unsigned bits = 8 * byteSize(type);
        std::int64_t v = static_cast<std::int64_t>(e->intBits);
        if (isSigned(type) && bits < 64) v = static_cast<std::int64_t>(e->intBits << (64 - bits)) >> (64 - bits);
        if (!isSigned(type) && e->intBits > static_cast<std::uint64_t>(kLimit)) return std::nullopt;
        return Interval{v, v};
      }
      case ExprKind::VarRef: return e->type.isPointer() ? std::nullopt : variable(e->var, depth);
      case ExprKind::Cast: {
        if (!isInteger(type)) return std::nullopt;
        const std::optional<Interval> x = eval(e->operands[0].get(), depth);
        return x ? fit(x->lo, x->hi, type) : std::nullopt;
      }
      case ExprKind::Unary: {
        if (!isInteger(type) || (e->unaryOp != UnaryOp::Neg && e->unaryOp != UnaryOp::Plus)) return std::nullopt;
        const std::optional<Interval> x = eval(e->operands[0].get(), depth);
        if (!x) return std::nullopt;
        return e->unaryOp == UnaryOp::Plus ? fit(x->lo, x->hi, type) : fit(-__int128{x->hi}, -__int128{x->lo}, type);
      }
      case ExprKind::Conditional: {
        const std::optional<Interval> a = eval(e->operands[1].get(), depth), b = eval(e->operands[2].get(), depth);
        if (!a || !b) return std::nullopt;
        return Interval{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
      }
      case ExprKind::Binary: {
        if (!isInteger(type)) return std::nullopt;
        const std::optional<Interval> a = eval(e->operands[0].get(), depth), b = eval(e->operands[1].get(), depth);
        if (!a || !b) return std::nullopt;
        const __int128 al = a->lo, ah = a->hi, bl = b->lo, bh = b->hi;
        switch (e->binaryOp) {
          case BinaryOp::Add: return fit(al + bl, ah + bh, type);
          case BinaryOp::Sub: return fit(al - bh, ah - bl, type);
          case BinaryOp::Mul: {
            const __int128 p[4] = {al * bl, al * bh, ah * bl, ah * bh};
            return fit(*std::min_element(p, p + 4), *std::max_element(p, p + 4), type);
          }
          // By a positive constant: the quotient rounded towards zero grows with the dividend; the
          // remainder lies within the divisor (with the dividend's sign).
          case BinaryOp::Div:
            if (bl != bh || bl <= 0) return std::nullopt;
            return fit(al / bl, ah / bl, type);
          case BinaryOp::Rem:
            if (bl != bh || bl <= 0) return std::nullopt;
            return fit(al < 0 ? -(bl - 1) : 0, ah > 0 ? bl - 1 : 0, type);
          // A right shift of a value not below zero by a constant in range: a division rounded down.
          case BinaryOp::Shr:
            if (bl != bh || bl < 0 || bl >= 63 || al < 0) return std::nullopt;
            return fit(al >> static_cast<int>(bl), ah >> static_cast<int>(bl), type);
          default: return std::nullopt;
        }
      }
      default: return std::nullopt;
    }
  }

  const Function& fn_;
  std::span<const GroupArrayArg> args_;
  const std::vector<const KernelParam*>& params_;
  const LaunchPlan& plan_;
  bool usable_ = false;
  std::vector<unsigned> assigned_;     // by variable: the expressions that assign it
  std::vector<const Expr*> inits_;     // ... its initializer (locals)
  std::vector<const Stmt*> loops_;     // ... the counted loop it counts
  std::int64_t first_ = 0, last_ = 0;  // the part's rows of axis 0
};

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
  // A sharded array is replicated first (`out` excepted: only written), or sliced: where the
  // kernel's reads of a read-only array are bounded for each part (ReadBounds: its own rows, a
  // stencil's halo, the rows of a contraction's operand), or for an element-wise kernel's
  // per-element inputs (each part's own elements), each engine gets the elements of those bounds
  // it does not hold. A void kernel's written arrays start from their values before the launch.
  std::vector<std::pair<std::size_t, std::vector<std::uint8_t>>> before;
  std::optional<ReadBounds> bounds;  // the kernel's reads walked once, for the first sharded input only
  const std::int64_t rowOutputs = plan.extent[0] > 0 ? plan.elements() / plan.extent[0] : 0;
  for (std::size_t k = 0; k < args.size() && k < params.size(); ++k) {
    GroupArray* a = args[k].array;
    if (!a || params[k]->role == ParamRole::ResultArray) continue;
    if (!a->replicated() && params[k]->role == ParamRole::PerElementScalar &&
        a->count_ >= static_cast<std::size_t>(plan.elements())) {
      for (const GroupLaunch::Part& part : r.parts)
        a->copyMissing(part.engine, static_cast<std::size_t>(part.first), static_cast<std::size_t>(part.last));
      continue;
    }
    if (!a->replicated() && !r.mirrored && rowOutputs > 0 && params[k]->role == ParamRole::ReadOnlyArray &&
        params[k]->userParam >= 0 && !params[k]->record) {
      if (!bounds) bounds.emplace(fn, args, params, plan);
      std::vector<std::pair<std::size_t, ReadBounds::Interval>> reads;
      bool bounded = true;
      for (const GroupLaunch::Part& part : r.parts) {
        if (part.first == part.last) continue;
        const std::optional<ReadBounds::Interval> b = bounds->rows(static_cast<VarId>(params[k]->userParam),
                                                                   part.first / rowOutputs, part.last / rowOutputs,
                                                                   a->count_);
        if (!b) {
          bounded = false;
          break;
        }
        reads.emplace_back(part.engine, *b);
      }
      if (bounded) {
        for (const auto& [engine, b] : reads)
          a->copyMissing(engine, static_cast<std::size_t>(b.lo), static_cast<std::size_t>(b.hi) + 1);
        continue;
      }
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
