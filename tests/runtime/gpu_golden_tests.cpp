// GPU tests over whole translated sources: every golden kernel against the CPU backend, an
// allocation the device cannot hold, cold and warm start-up, and the host cost of a launch.
// Without a GPU each prints "skipped: no GPU" and passes.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "culift/translate.hpp"
#include "gpu_support.hpp"
#include "llvm/ADT/SmallString.h"
#include "tensor_core_bound.hpp"

using namespace culift;
using namespace culift::rt;

namespace {

namespace fs = std::filesystem;

// Arrays are long enough for every index the goldens form from small extents and scalars 3.
constexpr std::size_t kArrayLength = 4096;
// CUDA's documented error bound for the transcendental functions it implements, in ulp.
constexpr std::int64_t kTranscendentalUlp = 4;

TranslateOptions translateOptions() {
  TranslateOptions o;
  const std::string include = rttest::sourceFile("include");
  if (!include.empty()) o.compilerArgs = {"-I" + include};
  return o;
}

// Math functions whose result the GPU rounds exactly as the CPU does; every other floating
// function is a transcendental approximated within a few ulp.
bool isExactMath(MathFn fn) {
  switch (fn) {
    case MathFn::Sqrt:
    case MathFn::Fabs:
    case MathFn::Fmin:
    case MathFn::Fmax:
    case MathFn::Floor:
    case MathFn::Ceil:
    case MathFn::Round:
    case MathFn::Trunc:
    case MathFn::Rint:
    case MathFn::Copysign:
    case MathFn::Fmod: return true;
    default: return false;
  }
}

// Whether `fn` (or a function it calls) calls a transcendental math function.
class TranscendentalFinder {
 public:
  explicit TranscendentalFinder(const Module& module) : module_(module) {}

  bool inFunction(const Function& fn) {
    if (!visited_.insert(&fn).second) return false;
    return fn.body && inStmt(*fn.body);
  }

 private:
  bool inExpr(const Expr& e) {
    if (e.kind == ExprKind::MathCall) {
      const MathFnInfo& mi = info(e.math);
      if (mi.domain == MathDomain::Floating && !isExactMath(e.math)) return true;
    }
    if (e.kind == ExprKind::Call && e.callee < module_.functions.size() && inFunction(module_.functions[e.callee]))
      return true;
    for (const ExprPtr& op : e.operands)
      if (op && inExpr(*op)) return true;
    return false;
  }
  bool inStmt(const Stmt& s) {
    for (const ExprPtr* e : {&s.cond, &s.expr})
      if (*e && inExpr(**e)) return true;
    for (const ExprPtr& e : s.inits)
      if (e && inExpr(*e)) return true;
    for (const StmtPtr* c : {&s.init, &s.then, &s.otherwise, &s.body})
      if (*c && inStmt(**c)) return true;
    for (const StmtPtr& c : s.stmts)
      if (c && inStmt(*c)) return true;
    return false;
  }

  const Module& module_;
  std::set<const Function*> visited_;
};

template <typename T> void put(std::vector<std::byte>& bytes, std::size_t k, T value) {
  std::memcpy(bytes.data() + k * sizeof(T), &value, sizeof(T));
}

// Deterministic, non-degenerate contents: integers in [1, 8) (usable as indices and divisors),
// floating values in [0.25, 0.95) (inside the domain of every math function's common use).
// `scatterSafe` integers are k % 64 instead: a kernel writing out[idx[i]] then gives every
// thread (at most 64 per launch here) its own element, so the result does not depend on the
// order threads run in, on the GPU or on the CPU backend.
std::vector<std::byte> fillValues(Scalar element, std::size_t count, unsigned seed, bool scatterSafe = false) {
  std::vector<std::byte> bytes(count * byteSize(element));
  for (std::size_t k = 0; k < count; ++k) {
    const std::int64_t small = scatterSafe ? static_cast<std::int64_t>(k % 64)
                                           : 1 + static_cast<std::int64_t>((k * 5 + seed * 3) % 7);
    const double fraction = std::fmod(static_cast<double>(k) * 0.6180339887 + seed * 0.137, 1.0);
    const double real = 0.25 + 0.7 * fraction;
    switch (element) {
      case Scalar::Bool: put(bytes, k, static_cast<bool>((k + seed) % 3 == 0)); break;
      case Scalar::I8: put(bytes, k, static_cast<std::int8_t>(small)); break;
      case Scalar::U8: put(bytes, k, static_cast<std::uint8_t>(small)); break;
      case Scalar::I16: put(bytes, k, static_cast<std::int16_t>(small)); break;
      case Scalar::U16: put(bytes, k, static_cast<std::uint16_t>(small)); break;
      case Scalar::I32: put(bytes, k, static_cast<std::int32_t>(small)); break;
      case Scalar::U32: put(bytes, k, static_cast<std::uint32_t>(small)); break;
      case Scalar::I64: put(bytes, k, static_cast<std::int64_t>(small)); break;
      case Scalar::U64: put(bytes, k, static_cast<std::uint64_t>(small)); break;
      case Scalar::F32: put(bytes, k, static_cast<float>(real)); break;
      case Scalar::F64: put(bytes, k, real); break;
      case Scalar::Void: break;
    }
  }
  return bytes;
}

ScalarValue scalarArgument(Scalar type) {
  ScalarValue v;
  v.type = type;
  if (type == Scalar::Bool) v.b = true;
  else if (type == Scalar::F32) v.f = 1.5f;
  else if (type == Scalar::F64) v.d = 1.5;
  else if (isSigned(type)) v.i = 3;
  else v.u = 3;
  return v;
}

LaunchPlan smallPlan(IndexMode mode) {
  switch (mode) {
    case IndexMode::Grid2D: return LaunchPlanner::for2D(8, 8, 8, 8);
    case IndexMode::Grid3D: return LaunchPlanner::for3D(4, 4, 4, 4, 4, 4);
    default: return LaunchPlanner::for1D(64, 32);
  }
}

// The plans each golden kernel runs under on both backends: the small plan (the 32-bit entry),
// the same through the 64-bit entry, and ragged extents (no multiple of 4) on a single block
// smaller than the space, so every grid-stride loop, the four-per-thread steps and the
// element-wise tail run more than once.
std::vector<std::pair<std::string, LaunchPlan>> plansFor(IndexMode mode) {
  std::vector<std::pair<std::string, LaunchPlan>> plans;
  plans.emplace_back("32-bit entry", smallPlan(mode));
  LaunchPlan wide = smallPlan(mode);
  wide.wideIndices = true;
  plans.emplace_back("64-bit entry", wide);
  LaunchPlan ragged;
  switch (mode) {
    case IndexMode::Grid2D: ragged = LaunchPlanner::for2D(7, 13, 4, 2); break;
    case IndexMode::Grid3D: ragged = LaunchPlanner::for3D(3, 7, 5, 2, 2, 2); break;
    default: ragged = LaunchPlanner::for1D(63, 4); break;
  }
  ragged.grid = {1, 1, 1};
  plans.emplace_back("ragged extents, one block", ragged);
  return plans;
}

// The arrays a kernel writes, as the host reads them back after one launch.
struct WrittenArrays {
  std::vector<std::string> names;
  std::vector<Scalar> elements;
  std::vector<std::vector<std::byte>> contents;
};

// Launches `fn` once on `engine` with the deterministic arguments and reads back every array
// it writes. Throws what the launch throws.
WrittenArrays launchOnce(Engine& engine, const std::shared_ptr<const Module>& module, const Function& fn,
                         const LaunchPlan& plan) {
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<LaunchArg> args;
  std::vector<std::pair<const KernelParam*, Buffer*>> written;
  unsigned seed = 0;
  for (const KernelParam& p : fn.signature.params) {
    ++seed;
    switch (p.role) {
      case ParamRole::Extent: break;
      case ParamRole::Scalar: args.push_back(LaunchArg::of(scalarArgument(p.type.scalar))); break;
      case ParamRole::ResultArray: {
        // A struct result: its scalars, p.record->elements() per index.
        const auto count = static_cast<std::size_t>(plan.elements()) * (p.record ? p.record->elements() : 1u);
        auto& b = buffers.emplace_back(std::make_unique<Buffer>(engine, p.type.scalar, count));
        b->zero();
        args.push_back(LaunchArg::of(*b));
        written.emplace_back(&p, b.get());
        break;
      }
      case ParamRole::ReadOnlyArray:
      case ParamRole::PerElementScalar:
      case ParamRole::WritableArray: {
        auto& b = buffers.emplace_back(std::make_unique<Buffer>(engine, p.type.scalar, kArrayLength));
        const bool scatters = std::any_of(fn.signature.params.begin(), fn.signature.params.end(),
                                          [](const KernelParam& q) { return q.role == ParamRole::WritableArray; });
        const std::vector<std::byte> host = fillValues(p.type.scalar, kArrayLength, seed,
                                                       scatters && p.role == ParamRole::ReadOnlyArray);
        b->writeBytes(host.data(), host.size(), 0);
        if (p.role == ParamRole::WritableArray) {
          args.push_back(LaunchArg::of(*b));
          written.emplace_back(&p, b.get());
        } else {
          args.push_back(LaunchArg::of(static_cast<const Buffer&>(*b)));
        }
        break;
      }
    }
  }
  engine.kernel(module, fn.name).launchArgs(engine, plan, args);
  engine.synchronize();
  WrittenArrays result;
  for (const auto& [param, buffer] : written) {
    result.names.push_back(param->name);
    result.elements.push_back(buffer->element());
    result.contents.emplace_back(buffer->bytes());
    buffer->readBytes(result.contents.back().data(), buffer->bytes(), 0);
  }
  return result;
}

// Distance in units in the last place between two finite values of the same sign class.
template <typename Float, typename Bits> std::int64_t ulpDistance(Float a, Float b) {
  auto ordered = [](Float x) {
    Bits bits;
    std::memcpy(&bits, &x, sizeof bits);
    using Signed = std::make_signed_t<Bits>;
    const Signed s = static_cast<Signed>(bits);
    // Map the sign-magnitude encoding onto a monotonic integer line.
    return s < 0 ? static_cast<std::int64_t>(std::numeric_limits<Signed>::min()) - s : static_cast<std::int64_t>(s);
  };
  const std::int64_t d = ordered(a) - ordered(b);
  return d < 0 ? -d : d;
}

// Compares element k of two read-backs; empty when they agree, else a description.
template <typename Float, typename Bits>
std::string compareFloat(const std::byte* g, const std::byte* c, std::int64_t allowedUlp) {
  Float gv, cv;
  std::memcpy(&gv, g, sizeof gv);
  std::memcpy(&cv, c, sizeof cv);
  if (std::memcmp(g, c, sizeof(Float)) == 0) return {};
  // NaN payloads are not specified by either side; both being NaN is agreement.
  if (std::isnan(gv) && std::isnan(cv)) return {};
  if (allowedUlp > 0 && std::isfinite(gv) && std::isfinite(cv)) {
    if (ulpDistance<Float, Bits>(gv, cv) <= allowedUlp) return {};
    // A kernel combining several transcendentals, some in float, carries each function's
    // few-ulp difference into its result at float precision: allow that many float ulps,
    // relative to the result. Each function's own bound is checked by the differential tester.
    const double scale = std::max(std::fabs(static_cast<double>(gv)), std::fabs(static_cast<double>(cv)));
    if (std::fabs(static_cast<double>(gv) - static_cast<double>(cv)) <=
        static_cast<double>(allowedUlp) * std::numeric_limits<float>::epsilon() * scale)
      return {};
  }
  return "gpu " + std::to_string(gv) + " cpu " + std::to_string(cv);
}

// How an array written through atomics whose order the device chooses is compared (the
// numerical contract: integer atomics give exact totals, float atomic sums are in no fixed
// order, and the old value a fetch returns depends on the order of the threads before it).
enum class OrderDependent {
  FloatSum,     // a float sum of atomic additions: within kAtomicSumRelative of the CPU's, relative to |sum|
  Permutation,  // the old values of an integer counter: the same values, in any order
  OldValues,    // the old values of a float sum: each within the sum's bounds, the first of them exact
  Uncompared,   // old values of several counters combined: only the counters' totals are compared
  // A contraction on tensor cores (the numerical contract's bound, not its exact form): within
  // 2u + 2^-18 of the CPU's, relative to it. The fixed arguments are positive, so every output is
  // a sum of positive terms, whose magnitude the bound's |s0| + sum |a b| is, scaled as the result
  // scales it; the fp32 loop's own error and the (K + 2) 2^-22 of the bound are far below 2^-18.
  TensorCoresTf32,  // u = rttest::kTf32Roundoff
  TensorCoresBf16,  // u = rttest::kBf16Roundoff
};
constexpr double kAtomicSumRelative = 1e-5;

// "file kernel" -> array -> how it is compared, for the golden kernels that write through
// order-dependent atomics or contract on tensor cores; every other array of theirs is compared bit for bit.
const std::map<std::string, std::map<std::string, OrderDependent>>& orderDependent() {
  static const std::map<std::string, std::map<std::string, OrderDependent>> arrays = {
      {"atomics.cpp Ticket", {{"ticket", OrderDependent::Permutation}}},
      {"atomics.cpp Counters", {{"culift_out", OrderDependent::Uncompared}}},
      // fetch_max of one value into best[i % 2]: of each parity, the output that runs first sees
      // the initial value and the others its maximum with v, so which output holds which depends
      // on the order (on an H200, block 1 ran before block 0 in two of four runs); the values
      // themselves do not.
      {"atomics_min_max.cpp Previous", {{"culift_out", OrderDependent::Permutation}}},
      // B[(i * n + j) * n + k] with the fixed n = 3 over extents up to 7: outputs past n write
      // elements other outputs write, so which value stays depends on the order the device runs
      // them in (compute-sanitizer's scheduling changes it). The stencil entries are compared bit
      // for bit, with arguments that suit them, in gpu_plan_tests.cpp.
      {"loop_stencil.cpp Heat", {{"B", OrderDependent::Uncompared}}},
      {"atomics.cpp Accumulate",
       {{"total", OrderDependent::FloatSum},
        {"wide", OrderDependent::FloatSum},
        {"culift_out", OrderDependent::OldValues}}},
      {"loop_tensor_cores.cpp GemmTf32", {{"culift_out", OrderDependent::TensorCoresTf32}}},
      {"loop_tensor_cores.cpp GemmBf16", {{"culift_out", OrderDependent::TensorCoresBf16}}},
  };
  return arrays;
}

template <typename Float> std::vector<Float> floatsOf(const std::vector<std::byte>& bytes) {
  std::vector<Float> v(bytes.size() / sizeof(Float));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(Float));
  return v;
}

// An order-dependent array: empty when the GPU's agrees with the CPU's as `how` says.
std::string compareOrderDependent(OrderDependent how, Scalar element, const std::vector<std::byte>& g,
                                  const std::vector<std::byte>& c) {
  if (how == OrderDependent::Uncompared) return g.size() == c.size() ? std::string() : "sizes differ";
  if (how == OrderDependent::Permutation) {
    const std::size_t width = byteSize(element);
    std::vector<std::vector<std::byte>> gs, cs;
    for (std::size_t k = 0; k + width <= g.size(); k += width) {
      gs.emplace_back(g.begin() + static_cast<std::ptrdiff_t>(k), g.begin() + static_cast<std::ptrdiff_t>(k + width));
      cs.emplace_back(c.begin() + static_cast<std::ptrdiff_t>(k), c.begin() + static_cast<std::ptrdiff_t>(k + width));
    }
    std::sort(gs.begin(), gs.end());
    std::sort(cs.begin(), cs.end());
    return gs == cs ? std::string() : "not the same values in another order";
  }
  const auto asDoubles = [&](const std::vector<std::byte>& b) {
    std::vector<double> d;
    if (element == Scalar::F32)
      for (float f : floatsOf<float>(b)) d.push_back(f);
    else d = floatsOf<double>(b);
    return d;
  };
  const std::vector<double> gv = asDoubles(g), cv = asDoubles(c);
  if (gv.size() != cv.size()) return "sizes differ";
  if (how == OrderDependent::FloatSum) {
    for (std::size_t k = 0; k < gv.size(); ++k)
      if (!(std::fabs(gv[k] - cv[k]) <= kAtomicSumRelative * std::max(1.0, std::fabs(cv[k]))))
        return "element " + std::to_string(k) + ": gpu " + std::to_string(gv[k]) + " cpu " + std::to_string(cv[k]);
    return {};
  }
  if (how == OrderDependent::TensorCoresTf32 || how == OrderDependent::TensorCoresBf16) {
    const double u = how == OrderDependent::TensorCoresTf32 ? rttest::kTf32Roundoff : rttest::kBf16Roundoff;
    for (std::size_t k = 0; k < gv.size(); ++k)
      if (!(std::fabs(gv[k] - cv[k]) <= (2 * u + std::ldexp(1.0, -18)) * std::fabs(cv[k])))
        return "element " + std::to_string(k) + ": gpu " + std::to_string(gv[k]) + " cpu " + std::to_string(cv[k]) +
               ", beyond the tensor cores' bound";
    return {};
  }
  // OldValues: the CPU runs the threads in order, so its values are the partial sums and its
  // first the initial value. On the GPU some thread saw the initial value, and every value is a
  // partial sum of some of the terms: within the sum of the CPU's steps of the initial value, plus
  // the last thread's term, which no old value shows (the fixed arguments' terms are of one size:
  // taken as the largest step).
  if (cv.empty()) return {};
  double steps = 0, largest = 0;
  for (std::size_t k = 1; k < cv.size(); ++k) {
    steps += std::fabs(cv[k] - cv[k - 1]);
    largest = std::max(largest, std::fabs(cv[k] - cv[k - 1]));
  }
  const double radius = (steps + largest) * (1 + kAtomicSumRelative) +
                        kAtomicSumRelative * std::max(1.0, std::fabs(cv[0]));
  for (std::size_t k = 0; k < gv.size(); ++k)
    if (!(std::fabs(gv[k] - cv[0]) <= radius))
      return "element " + std::to_string(k) + ": gpu " + std::to_string(gv[k]) + " is no partial sum of the terms";
  if (std::find(gv.begin(), gv.end(), cv.front()) == gv.end()) return "no thread saw the initial value";
  return {};
}

// Every array both backends wrote agrees element for element: bit for bit, or within
// `allowedUlp` for kernels calling transcendental functions; the arrays `rules` names as
// order-dependent as it says.
void requireSameArrays(const WrittenArrays& onGpu, const WrittenArrays& onCpu, std::int64_t allowedUlp,
                       const std::map<std::string, OrderDependent>& rules = {}) {
  REQUIRE(onGpu.contents.size() == onCpu.contents.size());
  for (std::size_t a = 0; a < onCpu.contents.size(); ++a) {
    INFO("array " << onCpu.names[a]);
    REQUIRE(onGpu.contents[a].size() == onCpu.contents[a].size());
    const Scalar element = onCpu.elements[a];
    const std::size_t width = byteSize(element);
    if (const auto rule = rules.find(onCpu.names[a]); rule != rules.end()) {
      const std::string mismatch = compareOrderDependent(rule->second, element, onGpu.contents[a], onCpu.contents[a]);
      INFO(mismatch);
      REQUIRE(mismatch.empty());
      continue;
    }
    for (std::size_t k = 0; k < onCpu.contents[a].size() / width; ++k) {
      const std::byte* g = onGpu.contents[a].data() + k * width;
      const std::byte* c = onCpu.contents[a].data() + k * width;
      std::string mismatch;
      if (element == Scalar::F32) mismatch = compareFloat<float, std::uint32_t>(g, c, allowedUlp);
      else if (element == Scalar::F64) mismatch = compareFloat<double, std::uint64_t>(g, c, allowedUlp);
      else if (std::memcmp(g, c, width) != 0) mismatch = "bytes differ";
      INFO("element " << k << ": " << mismatch);
      REQUIRE(mismatch.empty());
    }
  }
}

// The golden inputs, in order.
std::vector<fs::path> goldenInputs() {
  const std::string goldenDir = rttest::sourceFile("tests/codegen/golden");
  std::vector<fs::path> inputs;
  if (goldenDir.empty()) return inputs;
  for (const auto& entry : fs::directory_iterator(goldenDir))
    if (entry.is_regular_file() && entry.path().extension() == ".cpp") inputs.push_back(entry.path());
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

// "file kernel (plan)" of every golden launch that cannot run with the deterministic
// arguments, with why: each is named here, so a kernel that newly fails to run is a test
// failure, not a launch quietly left out.
const std::map<std::string, std::string>& notComparable() {
  static const std::map<std::string, std::string> named = {};
  return named;
}

std::string launchKey(const fs::path& input, const Function& fn, const std::string& plan) {
  return input.filename().string() + " " + fn.name + " (" + plan + ")";
}

}  // namespace

TEST_CASE("the golden kernels run on the CPU backend with the fixed arguments, but for the named ones", "[cpu]") {
  const std::vector<fs::path> inputs = goldenInputs();
  REQUIRE_FALSE(inputs.empty());
  auto cpu = Engine::createCpu();
  std::map<std::string, std::string> failing;
  for (const fs::path& input : inputs) {
    TranslateResult translated = translate(input.string(), translateOptions());
    INFO("golden " << input.filename().string() << "\n" << translated.formatDiagnostics());
    REQUIRE(translated.ok());
    for (const Function* fn : translated.module->kernels())
      for (const auto& [what, plan] : plansFor(fn->mode)) {
        try {
          (void)launchOnce(*cpu, translated.module, *fn, plan);
        } catch (const std::exception& e) {
          failing[launchKey(input, *fn, what)] = e.what();
        }
      }
  }
  std::string listed;
  for (const auto& [key, why] : failing) listed += key + ": " + why.substr(0, 300) + "\n";
  INFO("launches that throw:\n" << listed);
  std::set<std::string> keys, named;
  for (const auto& [key, why] : failing) keys.insert(key);
  for (const auto& [key, why] : notComparable()) named.insert(key);
  CHECK(keys == named);
}

// The CPU backend runs a launch's outputs on several threads: but for the kernels named
// order-dependent, a golden kernel gives the same bytes launch after launch, so a GPU mismatch
// is the GPU's.
TEST_CASE("the golden kernels give the same bytes launch after launch on the CPU backend", "[cpu]") {
  auto cpu = Engine::createCpu();
  std::size_t compared = 0;
  for (const fs::path& input : goldenInputs()) {
    TranslateResult translated = translate(input.string(), translateOptions());
    REQUIRE(translated.ok());
    for (const Function* fn : translated.module->kernels()) {
      if (orderDependent().count(input.filename().string() + " " + fn->name)) continue;
      for (const auto& [what, plan] : plansFor(fn->mode)) {
        INFO(launchKey(input, *fn, what));
        const WrittenArrays first = launchOnce(*cpu, translated.module, *fn, plan);
        for (int again = 0; again < 4; ++again) {
          const WrittenArrays next = launchOnce(*cpu, translated.module, *fn, plan);
          REQUIRE(next.contents.size() == first.contents.size());
          for (std::size_t a = 0; a < first.contents.size(); ++a) {
            INFO("array " << first.names[a] << ", launch " << again + 2);
            CHECK(next.contents[a] == first.contents[a]);
          }
        }
        ++compared;
      }
    }
  }
  REQUIRE(compared > 300);
}

TEST_CASE("every golden kernel agrees with the CPU backend", "[gpu][sanitize]") {
  auto gpu = rttest::gpuOrSkip(MathMode::Strict);
  if (!gpu) return;
  const std::vector<fs::path> inputs = goldenInputs();
  REQUIRE_FALSE(inputs.empty());

  auto cpu = Engine::createCpu();
  std::size_t total = 0, launches = 0, named = 0, orderDependentLaunches = 0;
  for (const fs::path& input : inputs) {
    INFO("golden " << input.filename().string());
    TranslateResult translated = translate(input.string(), translateOptions());
    INFO(translated.formatDiagnostics());
    REQUIRE(translated.ok());
    std::shared_ptr<const Module> module = translated.module;
    for (const Function* fn : module->kernels()) {
      ++total;
      INFO("kernel " << fn->name << " (" << name(fn->mode) << ")");
      const std::int64_t allowedUlp = TranscendentalFinder(*module).inFunction(*fn) ? kTranscendentalUlp : 0;
      for (const auto& [what, plan] : plansFor(fn->mode)) {
        INFO("plan: " << what << ", " << plan.toString());
        // Launches the fixed arguments do not suit are named (and held by the [cpu] case above).
        if (notComparable().count(launchKey(input, *fn, what))) {
          ++named;
          continue;
        }
        const WrittenArrays onCpu = launchOnce(*cpu, module, *fn, plan);
        const auto rules = orderDependent().find(input.filename().string() + " " + fn->name);
        requireSameArrays(launchOnce(*gpu, module, *fn, plan), onCpu, allowedUlp,
                          rules == orderDependent().end() ? std::map<std::string, OrderDependent>{} : rules->second);
        if (rules != orderDependent().end()) ++orderDependentLaunches;
        ++launches;
      }
    }
  }
  WARN("golden kernels compared: " << total << ", " << launches << " launches per backend, " << named
                                   << " named as not comparable");
  REQUIRE(total > 0);
  REQUIRE(named == notComparable().size());
  // Every kernel named order-dependent exists and was compared (three plans each).
  REQUIRE(orderDependentLaunches == 3 * orderDependent().size());
}

TEST_CASE("an allocation larger than the device fails cleanly and the engine stays usable", "[gpu]") {
  auto gpu = rttest::gpuOrSkip(MathMode::Strict);
  if (!gpu) return;
  bool threw = false;
  try {
    DeviceBuffer<float> huge(*gpu, 1ull << 40);  // 4 TiB
  } catch (const CudaError& e) {
    threw = true;
    INFO(e.what());
    CHECK(e.statusName() == "CUDA_ERROR_OUT_OF_MEMORY");
  }
  REQUIRE(threw);
  std::vector<float> host(1000);
  for (std::size_t k = 0; k < host.size(); ++k) host[k] = static_cast<float>(k) * 0.5f - 7.0f;
  DeviceBuffer<float> small(*gpu, host);
  CHECK(small.read() == host);
}

TEST_CASE("cold start compiles with NVRTC, warm start loads from the disk cache", "[gpu]") {
  std::string whyNot;
  if (!Engine::tryCreate({}, &whyNot)) {
    culift::test::noGpu(whyNot);
    return;
  }
  const std::string path = rttest::sourceFile("examples/pearson/pearson_metrics.hpp");
  REQUIRE_FALSE(path.empty());
  TranslateResult translated = translate(path, translateOptions());
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  std::shared_ptr<const Module> module = translated.module;

  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-startup", dir));
  struct RemoveDir {
    std::string path;
    ~RemoveDir() { llvm::sys::fs::remove_directories(path); }
  } cleanup{std::string(dir)};
  EngineOptions options;
  options.math = MathMode::Strict;
  options.cacheDir = std::string(dir);

  using Clock = std::chrono::steady_clock;
  auto timedLoad = [&](std::shared_ptr<Engine>& engine) {
    engine = Engine::tryCreate(options);
    REQUIRE(engine);
    const auto start = Clock::now();
    engine->load(module);
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  };
  std::shared_ptr<Engine> cold, warm;
  const double coldMs = timedLoad(cold);
  REQUIRE(cold->compileRecords().size() == 1);
  CHECK_FALSE(cold->compileRecords()[0].fromCache);
  const double warmMs = timedLoad(warm);
  REQUIRE(warm->compileRecords().size() == 1);
  REQUIRE(warm->compileRecords()[0].fromCache);
  WARN("start-up: cold (NVRTC) " << coldMs << " ms, warm (disk cache) " << warmMs << " ms; disk hits "
                                 << warm->cache().stats().diskHits);
}

TEST_CASE("the host overhead of one launch", "[gpu]") {
  auto gpu = rttest::gpuOrSkip(MathMode::Strict);
  if (!gpu) return;
  TranslateResult translated =
      translateSource("#include <culift/annotate.hpp>\nCULIFT_KERNEL float Zero(int i) { return 0.0f; }\n", "zero.cpp",
                      translateOptions());
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  std::shared_ptr<const Module> module = translated.module;
  REQUIRE(module->find("Zero"));
  REQUIRE(module->find("Zero")->mode == IndexMode::Grid1D);

  Kernel zero = gpu->kernel(module, "Zero");
  const LaunchPlan plan = LaunchPlanner::for1D(32, 32);
  DeviceBuffer<float> out(*gpu, 32);
  out.write(std::vector<float>(32, 1.0f));
  zero.launch(*gpu, plan, out);  // the first launch loads the module
  gpu->synchronize();
  CHECK(out.read() == std::vector<float>(32, 0.0f));

  constexpr int kBatches = 100, kPerBatch = 100;
  std::vector<double> perLaunchUs;
  for (int b = 0; b < kBatches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < kPerBatch; ++k) zero.launch(*gpu, plan, out);
    const auto stop = std::chrono::steady_clock::now();
    gpu->synchronize();
    perLaunchUs.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / kPerBatch);
  }
  std::sort(perLaunchUs.begin(), perLaunchUs.end());
  const double median = perLaunchUs[perLaunchUs.size() / 2];
  WARN("host overhead per launch: " << median << " us (median)");
  CHECK(median > 0.0);
}

TEST_CASE("element-wise kernels: vector entry, unaligned arrays and ragged lengths give the same results",
          "[gpu][sanitize]") {
  auto gpu = rttest::gpuOrSkip(MathMode::Strict);
  if (!gpu) return;
  TranslateResult translated = translateSource(
      "#include <culift/annotate.hpp>\n"
      "CULIFT_KERNEL float Mix(float a, double b, int m) { return a * (float)b + (float)(m % 7); }\n",
      "mix.cpp", translateOptions());
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  const std::shared_ptr<const Module> module = translated.module;
  REQUIRE(module->find("Mix")->itemsPerThread == 4);
  Kernel mix = gpu->kernel(module, "Mix");
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{1001}, std::size_t{65536 + 5}}) {
    for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {  // offset 1: no array is 16-byte aligned
      INFO("n = " << n << ", arrays offset by " << offset << " element(s)");
      std::vector<float> a(n + 1);
      std::vector<double> b(n + 1);
      std::vector<std::int32_t> k(n + 1);
      for (std::size_t e = 0; e <= n; ++e) {
        a[e] = 0.5f + static_cast<float>(e % 97) * 0.25f;
        b[e] = 1.0 + static_cast<double>(e % 13) / 8.0;
        k[e] = static_cast<std::int32_t>(e * 31 % 1000);
      }
      Buffer da(*gpu, Scalar::F32, n + 1), db(*gpu, Scalar::F64, n + 1), dk(*gpu, Scalar::I32, n + 1),
          out(*gpu, Scalar::F32, n + 1);
      da.writeBytes(a.data(), da.bytes(), 0);
      db.writeBytes(b.data(), db.bytes(), 0);
      dk.writeBytes(k.data(), dk.bytes(), 0);
      auto view = [&](const Buffer& buf, bool readOnly) {
        return BufferRef{gpu.get(), buf.address() + offset * byteSize(buf.element()), buf.element(), n, readOnly};
      };
      mix.launch(*gpu, LaunchPlanner::for1D(static_cast<std::int64_t>(n), 128), view(da, true), view(db, true),
                 view(dk, true), view(out, false));
      gpu->synchronize();
      std::vector<float> got(n + 1);
      out.readBytes(got.data(), out.bytes(), 0);
      for (std::size_t e = 0; e < n; ++e) {
        const std::size_t s = e + offset;
        volatile float product = a[s] * static_cast<float>(b[s]);  // no contraction into an FMA
        const float want = product + static_cast<float>(k[s] % 7);
        INFO("element " << e);
        REQUIRE(got[s] == want);
      }
      REQUIRE(got[offset == 0 ? n : 0] == 0.0f);  // nothing written outside the view
    }
  }
}
