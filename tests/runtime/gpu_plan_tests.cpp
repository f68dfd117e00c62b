// The entries of loop plans (tiled contractions, symmetric ones, staged row reductions, column
// reductions) against the per-thread entry of the same kernel, bit for bit, under strict and
// default math, and against the CPU backend where the interpreter is quick enough: ragged extents
// in every axis, loops of 0, 1, 3 and 4097 iterations, arrays that are not 16-byte aligned. Every launch must
// take a plan entry and every entry must run, so the test cannot pass by not comparing.
// Without a GPU it prints "skipped: no GPU" and passes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "culift/ast/reassociation.hpp"
#include "culift/runtime/tuning.hpp"
#include "culift/translate.hpp"
#include "gpu_support.hpp"
#include "temp_files.hpp"
#include "tensor_core_bound.hpp"

using namespace culift;
using namespace culift::rt;

namespace {

// One launch argument as a kernel spec describes it: an array of `count` elements, or a scalar.
struct ArgSpec {
  bool isArray = false;
  Scalar element = Scalar::F32;
  std::size_t count = 0;
  ScalarValue scalar;
};
ArgSpec array(Scalar e, std::int64_t count) {
  return {true, e, static_cast<std::size_t>(std::max<std::int64_t>(count, 0)), {}};
}
template <typename T> ArgSpec scalar(T v) {
  ArgSpec a;
  a.scalar = ScalarValue::of(v);
  return a;
}

struct KernelSpec {
  const char* name;
  LoopPlan plan;
  std::function<std::vector<ArgSpec>(std::int64_t ni, std::int64_t nj, std::int64_t nk)> args;
  // Reassociating kernels: how much one iteration's terms can move the result (|term| times
  // its weight in the result, for arguments in [-1, 1]), for the bound on the difference from
  // the loop's order.
  double termWeight = 0;
};

int asInt(std::int64_t v) { return static_cast<int>(v); }

const std::vector<KernelSpec>& specs() {
  using S = Scalar;
  static const std::vector<KernelSpec> all = {
      {"Gram", LoopPlan::SymmetricTiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, std::max(ni, nj) * nk), scalar(asInt(nk))};
       }},
      {"Gemm", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, nk * nj), array(S::F32, ni * nj), scalar(1.5f),
                            scalar(-0.5f),          scalar(asInt(nk)),      scalar(asInt(nj))};
       }},
      {"Covar", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, std::max(ni, nj) * nk), scalar(asInt(nk))};
       }},
      {"Centered", LoopPlan::SymmetricTiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, std::max(ni, nj) * nk), scalar(asInt(nk))};
       }},
      {"Lower", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, std::max(ni, nj) * nk), array(S::F32, ni * nj), scalar(asInt(nk)),
                            scalar(asInt(nj))};
       }},
      {"Syrk", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         const std::int64_t m = std::max(ni, nj);
         return std::vector{array(S::F32, ni * nj), array(S::F32, nk * m), scalar(0.75f),    scalar(2.0f),
                            scalar(asInt(nj)),      scalar(asInt(m)),      scalar(asInt(nk))};
       }},
      {"Reversed", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, nk * nj), scalar(asInt(nk)), scalar(asInt(nj))};
       }},
      {"Shifted", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         const std::int64_t ld = std::max({nk, nj, std::int64_t{1}});
         return std::vector{array(S::F32, ni * ld), array(S::F64, nk * ld), scalar(asInt(ld)), scalar(asInt(nk))};
       }},
      {"Spread", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::I32, ni * nk), array(S::I32, nj * nk), scalar(asInt(nk))};
       }},
      {"Syr2k", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         const std::int64_t m = std::max(ni, nj);
         return std::vector{array(S::F32, m * nk), array(S::F32, m * nk), array(S::F32, ni * nj),
                            scalar(1.25f),         scalar(asInt(nk)),     scalar(asInt(nj))};
       }},
      {"ScaledGemm", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, nk * nj), scalar(1.3f), scalar(asInt(nk)),
                            scalar(asInt(nj))};
       }},
      {"UniformProduct", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, nj * nk), scalar(0.75), scalar(5ll),
                            scalar(asInt(nk))};
       }},
      {"RowSum", LoopPlan::RowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, ni * nk), scalar(asInt(nk))};
       }},
      {"RowSumSq", LoopPlan::RowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, ni * nk), scalar(asInt(nk))};
       }},
      {"MatVec", LoopPlan::RowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F64, ni * nk), array(S::F64, nk), scalar(asInt(nk))};
       }},
      {"Gesummv", LoopPlan::RowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F64, ni * nk), array(S::F64, ni * nk), array(S::F64, nk), scalar(1.5),
                            scalar(-0.75),          scalar(asInt(nk))};
       }},
      {"RowGap", LoopPlan::ExtremumRowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, ni * nk), scalar(asInt(nk))};
       }},
      {"RowTotal", LoopPlan::SplitRowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, ni * nk), scalar(asInt(nk))};
       },
       1.0},
      {"MatVecSum", LoopPlan::SplitRowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F64, ni * nk), array(S::F64, nk), scalar(asInt(nk))};
       },
       1.0},
      {"MomentGap", LoopPlan::SplitRowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, ni * nk), scalar(asInt(nk))};
       },
       4.0},
      {"ColSum", LoopPlan::ColumnReduction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk * nj), scalar(asInt(nk)), scalar(asInt(nj))};
       }},
      {"ColSum1", LoopPlan::ColumnReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, nk * ni), scalar(asInt(ni)), scalar(asInt(nk))};
       }},
      {"RmsCol", LoopPlan::ColumnReduction,
       [](auto ni, auto, auto nk) {
         // i = b * S + s: 7 columns of S where ni allows, else one.
         const std::int64_t S = ni % 7 == 0 ? ni / 7 : std::max<std::int64_t>(ni, 1);
         return std::vector{array(S::F32, ni * nk), scalar(asInt(nk)), scalar(asInt(S)), scalar(1e-6f)};
       }},
      {"WeightedCol", LoopPlan::ColumnReduction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F64, ni * nk * nj), array(S::F64, nk), scalar(asInt(nk)), scalar(asInt(nj))};
       }},
      {"ColMax", LoopPlan::ColumnReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::I32, nk * ni), scalar(asInt(ni)), scalar(asInt(nk))};
       }},
      {"ColMean", LoopPlan::ColumnReduction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nj), array(S::F32, ni * nk * nj), scalar(asInt(nk)), scalar(asInt(nj))};
       }},
  };
  return all;
}

// The seed of values() that launch() fills the spec's first array with (the next ones take 8, 9, ...).
constexpr unsigned kFirstArraySeed = 7;

// Deterministic values in [-1, 1] (integers in [-1000, 1000]), different for every seed: element
// k is a hash of (seed, k), so arrays of hundreds of millions are made in about a second.
std::vector<std::byte> makeValues(Scalar element, std::size_t count, unsigned seed) {
  std::vector<std::byte> bytes(count * byteSize(element));
  for (std::size_t k = 0; k < count; ++k) {
    std::uint64_t h = (std::uint64_t{seed} << 40) + k + 0x9e3779b97f4a7c15ULL;  // splitmix64
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    h ^= h >> 31;
    const double real = static_cast<double>(h >> 11) * 0x1p-52 - 1.0;  // [-1, 1)
    std::byte* at = bytes.data() + k * byteSize(element);
    if (element == Scalar::F32) {
      const float v = static_cast<float>(real);
      std::memcpy(at, &v, sizeof v);
    } else if (element == Scalar::F64) {
      std::memcpy(at, &real, sizeof real);
    } else {
      const auto v = static_cast<std::int32_t>(h % 2001) - 1000;
      std::memcpy(at, &v, sizeof v);
    }
  }
  return bytes;
}

// makeValues, kept for the launches that follow with the same arrays (a plan entry, the
// per-thread entry, on two engines): the last few made.
std::shared_ptr<const std::vector<std::byte>> values(Scalar element, std::size_t count, unsigned seed) {
  using Key = std::tuple<Scalar, std::size_t, unsigned>;
  static std::vector<std::pair<Key, std::shared_ptr<const std::vector<std::byte>>>> made;
  const Key key{element, count, seed};
  for (const auto& [k, v] : made)
    if (k == key) return v;
  if (made.size() >= 4) made.erase(made.begin());
  made.emplace_back(key, std::make_shared<const std::vector<std::byte>>(makeValues(element, count, seed)));
  return made.back().second;
}

// Launches `fn` over `plan` on `engine` with the spec's arrays at `offset` elements into their
// buffers, filled with fill(element, count, kFirstArraySeed + k) for the k-th (values() where
// `fill` is empty); returns the bytes of every array it writes (out, or the written arrays).
using Fill = std::function<std::vector<std::byte>(Scalar element, std::size_t count, unsigned seed)>;

std::vector<std::byte> launch(Engine& engine, const std::shared_ptr<const Module>& module, const Function& fn,
                              const std::vector<ArgSpec>& spec, const LaunchPlan& plan, std::size_t offset,
                              const Fill& fill = {}, std::optional<EntryLaunch>* ran = nullptr) {
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<LaunchArg> args;
  std::vector<std::pair<Buffer*, std::size_t>> written;
  unsigned seed = kFirstArraySeed;
  std::size_t user = 0;
  for (const KernelParam& p : fn.signature.params) {
    if (p.role == ParamRole::Extent) continue;
    if (p.role == ParamRole::ResultArray) {
      const auto count = static_cast<std::size_t>(plan.elements());
      auto& b = buffers.emplace_back(std::make_unique<Buffer>(engine, p.type.scalar, count + offset + 1));
      args.push_back(LaunchArg::of(
          BufferRef{&engine, b->address() + offset * byteSize(p.type.scalar), p.type.scalar, count, false}));
      written.emplace_back(b.get(), count);
      continue;
    }
    const ArgSpec& a = spec.at(user++);
    if (!a.isArray) {
      args.push_back(LaunchArg::of(a.scalar));
      continue;
    }
    auto& b = buffers.emplace_back(std::make_unique<Buffer>(engine, a.element, a.count + offset + 1));
    const auto host = fill ? std::make_shared<const std::vector<std::byte>>(fill(a.element, a.count, seed))
                           : values(a.element, a.count, seed);
    ++seed;
    if (!host->empty()) b->writeBytes(host->data(), host->size(), offset * byteSize(a.element));
    const bool out = p.role == ParamRole::WritableArray;
    args.push_back(
        LaunchArg::of(BufferRef{&engine, b->address() + offset * byteSize(a.element), a.element, a.count, !out}));
    if (out) written.emplace_back(b.get(), a.count);
  }
  const Kernel kernel = engine.kernel(module, fn.name);
  kernel.launchArgs(engine, plan, args);
  engine.synchronize();
  if (ran) *ran = kernel.lastLaunch();
  std::vector<std::byte> result;
  for (auto& [buffer, count] : written) {
    std::vector<std::byte> bytes(buffer->bytes());
    buffer->readBytes(bytes.data(), bytes.size(), 0);
    result.insert(result.end(), bytes.begin(), bytes.end());
  }
  return result;
}

// The module of a kernel header of tests/runtime/data, translated with culift's include path.
std::shared_ptr<const Module> translatedData(const std::string& header) {
  const std::string path = rttest::sourceFile("tests/runtime/data/" + header);
  REQUIRE_FALSE(path.empty());
  TranslateOptions options;
  options.compilerArgs = {"-I" + rttest::sourceFile("include")};
  TranslateResult translated = translate(path, options);
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  return translated.module;
}

// The floating value of `element` at byte `at` of `bytes`.
double floatAt(const std::vector<std::byte>& bytes, std::size_t at, Scalar element) {
  if (element == Scalar::F32) {
    float f;
    std::memcpy(&f, bytes.data() + at, 4);
    return f;
  }
  double d;
  std::memcpy(&d, bytes.data() + at, 8);
  return d;
}

// The value of `element` at byte `at` of `bytes`, for a failure's message (integers as such).
std::string valueAt(const std::vector<std::byte>& bytes, std::size_t at, Scalar element) {
  std::ostringstream out;
  out.precision(17);
  if (isFloating(element)) {
    out << floatAt(bytes, at, element);
  } else {
    std::int32_t v;
    std::memcpy(&v, bytes.data() + at, 4);
    out << v;
  }
  return out.str();
}

// The first element where two read-backs differ, or -1: bit for bit, or for floating values
// with `relative` > 0 within relative * max(1, |a|, |b|), or with `absolute` > 0 within it.
std::int64_t firstDifference(const std::vector<std::byte>& a, const std::vector<std::byte>& b, Scalar element,
                             double relative = 0, double absolute = 0) {
  const std::size_t width = byteSize(element);
  if (a.size() != b.size()) return 0;
  for (std::size_t k = 0; k < a.size(); k += width) {
    if (std::memcmp(a.data() + k, b.data() + k, width) == 0) continue;
    // The GPU and the CPU backend agree on NaN, not on its bits (numerical-contract.md).
    if (isFloating(element) && std::isnan(floatAt(a, k, element)) && std::isnan(floatAt(b, k, element))) continue;
    if ((relative > 0 || absolute > 0) && isFloating(element)) {
      const double x = floatAt(a, k, element), y = floatAt(b, k, element);
      if (relative > 0 && std::fabs(x - y) <= relative * std::max({1.0, std::fabs(x), std::fabs(y)})) continue;
      if (absolute > 0 && std::fabs(x - y) <= absolute) continue;
    }
    // Shown with the failing check: the element and both values.
    UNSCOPED_INFO("first difference at element " << k / width << " of " << a.size() / width << ": "
                                                 << valueAt(a, k, element) << " against " << valueAt(b, k, element));
    return static_cast<std::int64_t>(k / width);
  }
  return -1;
}

// gamma_n = n u / (1 - n u): the relative error bound of n floating additions in any order.
double gamma(double n, Scalar element) {
  const double u = element == Scalar::F32 ? 0x1p-24 : 0x1p-53;
  return n * u / (1 - n * u);
}

// How far a reassociating kernel's result may be from the loop as written, for `nk` iterations
// whose terms move it by at most `weight` each: each order is within gamma_n * sum |terms| of the
// exact sum (n the longest chain of additions: nk + 1 as written; in the plan's order 128 per lane
// of a chunk, 5 shuffles, a slot's ceil(nk / 2^20) chunks, 8 slots per lane and 5 shuffles again,
// the sum before the loop), one more rounding after the loop.
double reassociationBound(std::int64_t nk, double weight, Scalar element) {
  const double n = static_cast<double>(nk);
  const double chain = std::ceil(std::min(n, 4096.0) / 32) + 5 + std::ceil(n / 1048576) + 8 + 5 + 2;
  return (gamma(n + 2, element) + gamma(chain, element)) * n * weight;
}

struct Extent {
  std::int64_t ni, nj, nk;
  std::size_t offset;
};

// Parts of whole rows of the launch over `plan` (each a device's share in a device group): the
// entry the part takes (one whose mapping takes parts, or the part wrapper where none does) on
// `strict`, against the part wrapper (`exact` kernels: the same bits) and, where `withCpu`, against
// the CPU backend's part. Every output beyond the part is left as it was in each. Returns the
// parts that ran a plan entry.
std::size_t requirePartsAgree(Engine& strict, Engine& cpu, const std::shared_ptr<const Module>& module,
                              const Function& fn, const std::vector<ArgSpec>& args, const LaunchPlan& plan,
                              std::size_t offset, Scalar element, bool exact, bool withCpu, const Fill& fill = {}) {
  const std::int64_t rows = plan.extent[0];
  if (rows < 2) return 0;
  const std::int64_t row = plan.elements() / rows;
  std::size_t entries = 0;
  for (const auto& [first, last] :
       {std::pair{rows / 3, rows}, std::pair{std::int64_t{1}, std::max<std::int64_t>(2, 2 * rows / 3)}}) {
    INFO("part: rows [" << first << ", " << last << ")");
    LaunchPlan part = plan;
    part.partFirst = first * row;
    part.partLast = last * row;
    const std::optional<PlanChoice> choice = choosePlanEntry(fn, part, strict.device());
    if (choice) {
      REQUIRE(takesParts(fn.planEntries.at(choice->entry).blockMapping()));
      ++entries;
    }
    LaunchPlan wrapper = part;
    wrapper.perThread = true;
    const auto got = launch(strict, module, fn, args, part, offset, fill);
    if (exact) REQUIRE(firstDifference(got, launch(strict, module, fn, args, wrapper, offset, fill), element) == -1);
    if (withCpu) REQUIRE(firstDifference(got, launch(cpu, module, fn, args, part, offset, fill), element) == -1);
  }
  return entries;
}

// The entry a launch over `plan` takes, against the per-thread entry on each engine (bit for bit
// under strict math; under default math NVRTC may contract a*b+c into an FMA in one entry and not
// the other, so within that rounding) and, where `withCpu`, against the CPU backend under strict
// math, which then counts in `comparedWithCpu`.
void requireEntryAgrees(Engine& strict, Engine& fast, Engine& cpu, const std::shared_ptr<const Module>& module,
                        const Function& fn, const std::vector<ArgSpec>& args, const LaunchPlan& plan,
                        std::size_t offset, Scalar element, bool withCpu, std::size_t& comparedWithCpu) {
  LaunchPlan perThread = plan;
  perThread.perThread = true;
  for (Engine* engine : {&strict, &fast}) {
    const bool exact = engine == &strict;
    INFO((exact ? "strict" : "default") << " math");
    const auto planned = launch(*engine, module, fn, args, plan, offset);
    const auto reference = launch(*engine, module, fn, args, perThread, offset);
    REQUIRE(firstDifference(planned, reference, element, exact ? 0 : 1e-5) == -1);
    if (exact && withCpu) {
      REQUIRE(firstDifference(planned, launch(cpu, module, fn, args, plan, offset), element) == -1);
      ++comparedWithCpu;
    }
  }
  if (withCpu) requirePartsAgree(strict, cpu, module, fn, args, plan, offset, element, true, true);
}

std::vector<Extent> allExtentsFor(unsigned rank) {
  std::vector<Extent> out;
  const std::int64_t ks[] = {0, 1, 3, 4097};
  if (rank == 2) {
    const std::int64_t sides[] = {1, 7, 127, 129, 1000};
    for (std::int64_t ni : sides)
      for (std::int64_t nj : sides)
        for (std::int64_t nk : ks) out.push_back({ni, nj, nk, static_cast<std::size_t>((ni + nj + nk) % 2)});
    // Large enough for the 128 x 128 tiles (a block for every multiprocessor), square and not.
    out.push_back({4097, 4097, 3, 1});
    out.push_back({4097, 1000, 3, 0});
    out.push_back({1000, 4097, 17, 1});
    out.push_back({7, 4097, 4097, 0});
    out.push_back({4097, 7, 129, 1});
  } else {
    for (std::int64_t ni : {1, 7, 127, 129, 1000, 4097})
      for (std::int64_t nk : ks) out.push_back({ni, 1, nk, static_cast<std::size_t>((ni + nk) % 2)});
    out.push_back({70001, 1, 3, 1});     // more rows than one block per multiprocessor covers
    out.push_back({129, 1, 100003, 1});  // a long loop: many slices in flight
    // Few rows longer than the 256 slots' chunks (2^20 iterations): slots of several chunks,
    // split over 32 blocks per row; a partial last chunk.
    out.push_back({3, 1, 2 * 1048576 + 4097, 1});
    out.push_back({16, 1, 1048576 + 31, 0});
  }
  return out;
}

// CULIFT_PLAN_TESTS_SMALL=1 runs a few launches with ragged edges in every axis, each entry at
// least once (under compute-sanitizer, which is slow).
bool smallOnly() {
  const char* small = std::getenv("CULIFT_PLAN_TESTS_SMALL");
  return small && std::string(small) == "1";
}

std::vector<Extent> extentsFor(unsigned rank) {
  if (!smallOnly()) return allExtentsFor(rank);
  // The last ones are the smallest that still take the 128 x 128 tiles (symmetric and not) and
  // 32 rows per block on a device of 132 multiprocessors.
  if (rank == 2)
    return {{1, 1, 0, 0}, {7, 129, 3, 1}, {129, 7, 17, 0}, {129, 129, 1, 1}, {1920, 1920, 3, 0}, {1920, 1408, 5, 1}};
  // (34000 outputs: the smallest 1-D launch that takes 256 outputs per block of a column reduction.)
  return {{1, 1, 0, 0}, {7, 1, 3, 1}, {129, 1, 300, 0}, {3808, 1, 70, 1}, {34000, 1, 3, 0}};
}

}  // namespace

TEST_CASE("every loop-plan entry gives the per-thread entry's bits and the CPU backend's", "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  auto fast = rttest::gpuOrSkip(MathMode::Default);
  REQUIRE(fast);
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("loop_plan_kernels.hpp");

  std::set<std::string> entriesRun, entriesDeclared;
  std::size_t comparedWithCpu = 0, launches = 0, partsOnEntries = 0;
  for (const KernelSpec& spec : specs()) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == spec.plan);
    for (const PlanEntry& e : fn->planEntries) entriesDeclared.insert(e.kernelName);
    const Scalar element = fn->returnType.isVoid() ? Scalar::F32 : fn->returnType.scalar;
    for (const Extent& x : extentsFor(rank(fn->mode))) {
      INFO("extents " << x.ni << " x " << x.nj << ", k " << x.nk << ", arrays offset by " << x.offset);
      const LaunchPlan plan = rank(fn->mode) == 2 ? LaunchPlanner::for2D(x.ni, x.nj, 32, 8)
                                                  : LaunchPlanner::for1D(x.ni, 256);
      LaunchPlan perThread = plan;
      perThread.perThread = true;
      const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
      REQUIRE(choice);  // every launch here must run a plan entry
      const std::string entry = fn->planEntries.at(choice->entry).kernelName;
      entriesRun.insert(entry);
      INFO("entry " << entry << " " << choice->plan.toString());
      const std::vector<ArgSpec> args = spec.args(x.ni, x.nj, x.nk);
      // The kernels index with int: a shape whose array the kernel cannot index without overflow
      // (a column sum's ni x nk x nj at 1000 x 4097 x 1000) is not the kernel's to run.
      if (std::any_of(args.begin(), args.end(), [](const ArgSpec& a) {
            return a.isArray && a.count > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
          }))
        continue;
      // Strict math: every entry and the interpreter, bit for bit. Default math: NVRTC may fuse a
      // multiply and an add into an FMA in one entry's code and not in another's, so the entries
      // agree within that rounding (docs/numerical-contract.md).
      for (Engine* engine : {strict.get(), fast.get()}) {
        const bool exact = engine == strict.get();
        INFO((exact ? "strict" : "default") << " math");
        const auto planned = launch(*engine, module, *fn, args, plan, x.offset);
        const auto reference = launch(*engine, module, *fn, args, perThread, x.offset);
        if (spec.termWeight > 0) {
          // The loop as written is another order: within the bound, and not bit for bit.
          REQUIRE(firstDifference(planned, reference, element, 0, reassociationBound(x.nk, spec.termWeight, element)) ==
                  -1);
        } else {
          REQUIRE(firstDifference(planned, reference, element, exact ? 0 : 1e-5) == -1);
        }
        launches += 2;
        if (exact && x.ni * x.nj * std::max<std::int64_t>(x.nk, 1) <= 200000) {
          REQUIRE(firstDifference(planned, launch(*cpu, module, *fn, args, plan, x.offset), element) == -1);
          ++comparedWithCpu;
          // Parts of whole rows: a reassociating entry's part against the CPU backend's alone.
          partsOnEntries += requirePartsAgree(*engine, *cpu, module, *fn, args, plan, x.offset, element,
                                              spec.termWeight == 0, true);
        }
      }
    }
  }
  WARN("loop-plan entries run: " << entriesRun.size() << " of " << entriesDeclared.size() << "; " << launches
                                 << " GPU launches, " << comparedWithCpu << " compared with the CPU backend, "
                                 << partsOnEntries << " parts of launches on plan entries");
  REQUIRE(entriesRun == entriesDeclared);
  REQUIRE(partsOnEntries >= (smallOnly() ? 10u : 100u));
  REQUIRE(comparedWithCpu >= (smallOnly() ? 30u : 300u));
}

namespace {

// A row in the order the reassociating plans document (culift/ast/reassociation.hpp), written
// out plainly: a warp sum of m values has lane l of 32 add v_l, v_{l+32}, ... to -0.0 in order, then
// lanes l and l + d add for d = 16 .. 1; each chunk of 4096 iterations is the warp sum of its terms
// (each term added to -0.0); slot q adds chunks q, q + 256, ... in order to -0.0; the total is the
// warp sum of the 256 slots, and the sum before the loop is added last.
float warpSum(const std::vector<float>& v) {
  float lane[32];
  std::fill(std::begin(lane), std::end(lane), -0.0f);
  for (std::size_t t = 0; t < v.size(); ++t) lane[t % 32] = lane[t % 32] + v[t];
  for (int d = 16; d >= 1; d /= 2)
    for (int l = 0; l < d; ++l) lane[l] = lane[l] + lane[l + d];
  return lane[0];
}

float documentedOrder(const float* row, std::int64_t n) {
  std::vector<float> slots(256, -0.0f);
  for (std::int64_t c = 0; c * 4096 < n; ++c) {
    std::vector<float> terms;
    for (std::int64_t t = c * 4096; t < std::min(n, (c + 1) * 4096); ++t) terms.push_back(-0.0f + row[t]);
    slots[static_cast<std::size_t>(c % 256)] = slots[static_cast<std::size_t>(c % 256)] + warpSum(terms);
  }
  return 0.0f + warpSum(slots);
}

}  // namespace

TEST_CASE("a reassociating kernel adds in its documented order on the CPU backend, as written per thread", "[cpu]") {
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("loop_plan_kernels.hpp");
  const Function* fn = module->find("RowTotal");
  REQUIRE(fn);
  REQUIRE(fn->loopPlan == LoopPlan::SplitRowReduction);
  std::size_t differFromWritten = 0;
  // Rows of one chunk, of several, and (two rows) of slots holding two and three chunks.
  const std::pair<std::int64_t, std::int64_t> shapes[] = {{9, 0},           {9, 1},
                                                          {9, 31},          {9, 33},
                                                          {9, 100},         {9, 4096},
                                                          {9, 4097},        {9, 20000},
                                                          {2, 1048576 + 1}, {2, 2 * 1048576 + 4097}};
  for (const auto& [rows, n] : shapes) {
    INFO("rows of " << n);
    const auto held = values(Scalar::F32, static_cast<std::size_t>(rows * n), kFirstArraySeed);
    const std::vector<std::byte>& bytes = *held;
    std::vector<float> x(static_cast<std::size_t>(rows * n));
    if (!x.empty()) std::memcpy(x.data(), bytes.data(), bytes.size());
    const std::vector<ArgSpec> args = {array(Scalar::F32, rows * n), scalar(asInt(n))};
    LaunchPlan plan = LaunchPlanner::for1D(rows, 256);
    const auto planned = launch(*cpu, module, *fn, args, plan, 0);
    plan.perThread = true;
    const auto written = launch(*cpu, module, *fn, args, plan, 0);
    REQUIRE(planned.size() >= static_cast<std::size_t>(rows) * 4);
    for (std::int64_t r = 0; r < rows; ++r) {
      float got, asWritten;
      std::memcpy(&got, planned.data() + r * 4, 4);
      std::memcpy(&asWritten, written.data() + r * 4, 4);
      const float* row = x.data() + r * n;
      float sum = 0.0f, magnitude = 0.0f;
      for (std::int64_t k = 0; k < n; ++k) sum += row[k], magnitude += std::fabs(row[k]);
      const float expected = documentedOrder(row, n);
      CHECK(std::memcmp(&got, &expected, 4) == 0);
      CHECK(std::memcmp(&asWritten, &sum, 4) == 0);
      // Both within gamma_n * sum |x| of the exact sum (reassociationBound with the row's own
      // magnitude in place of n * 1).
      const double bound = n ? reassociationBound(n, 1.0, Scalar::F32) / static_cast<double>(n) * magnitude : 0.0;
      CHECK(std::fabs(double{got} - double{sum}) <= bound);
      differFromWritten += std::memcmp(&got, &sum, 4) != 0;
    }
  }
  // The orders are not the same one: at 100 iterations and more some row must differ.
  CHECK(differFromWritten > 0);
}

TEST_CASE("the split-row and warp-per-row entries give the same bits, those of the documented order",
          "[gpu][sanitize]") {
  auto gpu = rttest::gpuOrSkip(MathMode::Strict);
  if (!gpu) return;
  const std::shared_ptr<const Module> module = translatedData("loop_plan_kernels.hpp");
  const Function* fn = module->find("RepeatedRows");
  REQUIRE(fn);
  REQUIRE(fn->loopPlan == LoopPlan::SplitRowReduction);
  // As many rows as the device has warps take the warp per row; 16 (and 1) long rows the split rows.
  const std::int64_t many = 64 * std::max(1, gpu->device().multiprocessors) + 5;
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{4097}, std::int64_t{8 * 4096 + 1},
                         std::int64_t{300001}, std::int64_t{2 * 1048576 + 4097}}) {
    INFO("rows of " << n);
    const auto held = values(Scalar::F32, static_cast<std::size_t>(16 * n), kFirstArraySeed);
    const std::vector<std::byte>& bytes = *held;
    std::vector<float> x(static_cast<std::size_t>(16 * n));
    if (!x.empty()) std::memcpy(x.data(), bytes.data(), bytes.size());
    const std::vector<ArgSpec> args = {array(Scalar::F32, 16 * n), scalar(static_cast<long long>(n))};
    std::vector<float> expected(16);
    for (std::int64_t r = 0; r < 16; ++r) expected[static_cast<std::size_t>(r)] = documentedOrder(x.data() + r * n, n);
    // Rows of fewer chunks than a block has warps take the warp per row at any row count.
    const bool longRows = n >= 8 * kReassociationChunk;
    std::map<std::string, std::vector<float>> byEntry;
    for (std::int64_t rows : {std::int64_t{1}, std::int64_t{16}, many}) {
      for (std::size_t offset : {std::size_t{0}, std::size_t{1}}) {  // aligned and not
        const LaunchPlan plan = LaunchPlanner::for1D(rows, 256);
        // The launch's choice: the row length is its argument n (Kernel reads the loop's bound).
        const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, gpu->device(), n);
        REQUIRE(choice);
        const std::string entry = fn->planEntries.at(choice->entry).kernelName;
        CHECK(entry == (rows == many || !longRows ? "RepeatedRows_warp" : "RepeatedRows_split"));
        // Twice on one stream: the scratch's tickets are left ready for the next launch.
        for (int again = 0; again < 2; ++again) {
          const auto out = launch(*gpu, module, *fn, args, plan, offset);
          std::vector<float> got(static_cast<std::size_t>(rows));
          std::memcpy(got.data(), out.data() + offset * 4, got.size() * 4);
          for (std::int64_t r = 0; r < rows; ++r) {
            INFO("row " << r << " of " << rows << ", entry " << entry);
            REQUIRE(std::memcmp(&got[static_cast<std::size_t>(r)], &expected[static_cast<std::size_t>(r % 16)], 4) ==
                    0);
          }
          byEntry[entry] = got;
        }
      }
    }
    REQUIRE(byEntry.size() == (longRows ? 2u : 1u));
    if (longRows)
      REQUIRE(std::memcmp(byEntry["RepeatedRows_warp"].data(), byEntry["RepeatedRows_split"].data(), 16 * 4) == 0);
    REQUIRE(byEntry["RepeatedRows_warp"].size() == static_cast<std::size_t>(many));
  }
}

namespace {

// A stencil kernel of tests/runtime/data/stencil_kernels.hpp and its arguments for a launch of
// ni x nj (x nk) outputs.
struct StencilSpec {
  const char* name;
  LoopPlan plan;
  std::function<std::vector<ArgSpec>(std::int64_t ni, std::int64_t nj, std::int64_t nk)> args;
};

const std::vector<StencilSpec>& stencilSpecs() {
  using S = Scalar;
  static const std::vector<StencilSpec> all = {
      {"Jacobi", LoopPlan::Stencil,
       [](auto ni, auto nj, auto) {
         return std::vector{array(S::F32, ni * nj), scalar(asInt(ni)), scalar(asInt(nj))};
       }},
      {"Box", LoopPlan::Stencil,
       [](auto ni, auto nj, auto) {
         return std::vector{array(S::F32, ni * nj), array(S::F32, ni * nj), scalar(asInt(ni)), scalar(asInt(nj))};
       }},
      {"Padded", LoopPlan::Stencil,
       [](auto ni, auto nj, auto) {
         return std::vector{array(S::F32, (ni + 2) * (nj + 2)), scalar(asInt(nj))};
       }},
      {"Narrow", LoopPlan::Stencil,
       [](auto ni, auto nj, auto) {
         // An array narrower than the launch: only the border test keeps the reads inside it.
         const std::int64_t cols = std::max<std::int64_t>(nj / 2, 1);
         return std::vector{array(S::F32, ni * cols), scalar(asInt(cols))};
       }},
      {"Cross", LoopPlan::Stencil,
       [](auto ni, auto nj, auto) {
         return std::vector{array(S::I32, ni * nj), scalar(asInt(ni)), scalar(asInt(nj))};
       }},
      {"Heat", LoopPlan::Stencil3D,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F64, ni * nj * nk), array(S::F64, ni * nj * nk), scalar(asInt(ni)),
                            scalar(asInt(nj)), scalar(asInt(nk))};
       }},
      {"Conv", LoopPlan::Stencil3DWindows,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nj * nk), array(S::F32, 27), scalar(asInt(ni)), scalar(asInt(nj)),
                            scalar(asInt(nk))};
       }},
      {"ConvPair", LoopPlan::Stencil3DWindows,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nj * nk), array(S::F32, 27), scalar(asInt(ni)), scalar(asInt(nj)),
                            scalar(asInt(nk))};
       }},
      {"Upward", LoopPlan::Stencil3DWindows,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nj * nk), scalar(asInt(ni)), scalar(asInt(nj)), scalar(asInt(nk))};
       }},
      {"Centred3D", LoopPlan::Stencil3DWindows,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nj * nk), scalar(asInt(ni)), scalar(asInt(nj)), scalar(asInt(nk))};
       }},
      {"Ahead", LoopPlan::Stencil3D,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nj * nk), array(S::F32, ni * nj * nk), scalar(asInt(ni)),
                            scalar(asInt(nj)), scalar(asInt(nk))};
       }},
      {"Skew", LoopPlan::Stencil3DWindows,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F64, ni * nj * nk), array(S::F64, ni * nj * nk), scalar(asInt(ni)),
                            scalar(asInt(nj)), scalar(asInt(nk))};
       }},
      {"SkewF", LoopPlan::Stencil3DWindows,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nj * nk), array(S::F32, ni * nj * nk), scalar(asInt(ni)),
                            scalar(asInt(nj)), scalar(asInt(nk))};
       }},
  };
  return all;
}

// Extents that leave partial tiles in every axis, one element, thin slabs and planes, unaligned
// arrays (offset 1).
std::vector<Extent> stencilExtents(unsigned rank) {
  if (rank == 2) {
    std::vector<Extent> out = {{1, 1, 1, 0},  {1, 40, 1, 1}, {40, 1, 1, 0},    {8, 32, 1, 0},
                               {9, 33, 1, 1}, {3, 3, 1, 1},  {127, 129, 1, 0}, {1000, 1000, 1, 1}};
    if (!smallOnly()) out.push_back({2048, 2050, 1, 0});
    return out;
  }
  std::vector<Extent> out = {{1, 1, 1, 0},   {3, 3, 3, 1},    {2, 9, 33, 0},
                             {17, 8, 32, 1}, {40, 37, 70, 0}, {21, 19, 136, 0}};
  if (!smallOnly()) {
    out.push_back({130, 20, 70, 1});
    out.push_back({64, 64, 64, 0});
    // Blocks that fill the device, 16-row tiles covering j exactly where 32-row ones would not: the
    // streamed entries' wide tiles (the launches above take their narrow tiles).
    out.push_back({256, 48, 256, 0});
  }
  return out;
}

}  // namespace

TEST_CASE("every stencil entry gives the per-thread entry's bits and the CPU backend's", "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  auto fast = rttest::gpuOrSkip(MathMode::Default);
  REQUIRE(fast);
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("stencil_kernels.hpp");
  std::map<std::string, std::set<std::string>> entriesRun;  // by kernel
  std::size_t comparedWithCpu = 0;
  for (const StencilSpec& spec : stencilSpecs()) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == spec.plan);
    const Scalar element = fn->returnType.isVoid() ? fn->vars[0].type.scalar : fn->returnType.scalar;
    for (const Extent& x : stencilExtents(rank(fn->mode))) {
      INFO("extents " << x.ni << " x " << x.nj << " x " << x.nk << ", arrays offset by " << x.offset);
      const LaunchPlan plan = rank(fn->mode) == 2 ? LaunchPlanner::for2D(x.ni, x.nj, 32, 8)
                                                  : LaunchPlanner::for3D(x.ni, x.nj, x.nk, 32, 4, 2);
      const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
      REQUIRE(choice);
      entriesRun[fn->name].insert(fn->planEntries.at(choice->entry).kernelName);
      requireEntryAgrees(*strict, *fast, *cpu, module, *fn, spec.args(x.ni, x.nj, x.nk), plan, x.offset, element,
                         x.ni * x.nj * x.nk <= 100000, comparedWithCpu);
    }
  }
  std::size_t entries = 0;
  for (const auto& [kernel, names] : entriesRun) {
    entries += names.size();
    // 2-D: the launches of 2048 rows take 16 rows per thread, the smaller ones 2.
    const Function* fn = module->find(kernel);
    if (!smallOnly() && rank(fn->mode) == 2) CHECK(names.size() == fn->planEntries.size());
    // 3-D: a streamed entry's narrow tiles (<f>_win3d4n) and its wide ones both run.
    if (!smallOnly())
      for (const PlanEntry& e : fn->planEntries)
        if (e.kernelName == fn->name + "_win3d4n") {
          CHECK(names.count(e.kernelName) == 1);
          CHECK(names.count(fn->name + "_win3d4") == 1);
        }
  }
  WARN("stencil entries run: " << entries << "; " << comparedWithCpu << " compared with the CPU backend");
  REQUIRE(entriesRun.size() == stencilSpecs().size());
  REQUIRE(comparedWithCpu >= 30u);
}

// ---- column reductions shared by a middle axis: the loop once per column, the rest per m ----------

namespace {

struct HoistedSpec {
  const char* name;
  std::function<std::vector<ArgSpec>(std::int64_t nb, std::int64_t nm, std::int64_t nc)> args;
};

const std::vector<HoistedSpec>& hoistedSpecs() {
  using S = Scalar;
  static const std::vector<HoistedSpec> all = {
      {"RmsNormOne",
       [](auto nb, auto nm, auto nc) {
         return std::vector{array(S::F32, nb * nm * nc), scalar(asInt(nm)), scalar(asInt(nc)), scalar(1e-6f)};
       }},
      {"CenteredSq",
       [](auto nb, auto nm, auto nc) {
         return std::vector{array(S::F64, nb * nm * nc), array(S::F64, nm), scalar(asInt(nm)), scalar(asInt(nc))};
       }},
      {"ColumnShift",
       [](auto nb, auto nm, auto nc) {
         return std::vector{array(S::F32, nb * nm * nc), scalar(asInt(nm)), scalar(asInt(nc))};
       }},
      {"SquareOverSum",
       [](auto nb, auto nm, auto nc) {
         return std::vector{array(S::F32, nb * nm * nc), scalar(asInt(nm)), scalar(asInt(nc))};
       }},
  };
  return all;
}

// (b, m, c) launches with at least 64 columns (b, c) per multiprocessor of a 132-SM device: a
// middle axis of 1 to 64 (a loop of as many iterations), columns of 64 and 256 per block,
// ragged last blocks, arrays not 16-byte aligned.
std::vector<Extent> hoistedExtents() {
  std::vector<Extent> out = {{2, 5, 4500, 1}, {3, 1, 2900, 0}, {1, 17, 9001, 1}, {2, 3, 16000, 0}};
  if (!smallOnly()) {
    out.push_back({7, 64, 1300, 0});
    out.push_back({16, 33, 4099, 1});
    // More middle indices than the stash holds (64 floats or 32 doubles per column): the rest from memory.
    out.push_back({2, 130, 4300, 1});
    out.push_back({2, 100, 16000, 0});
  }
  return out;
}

}  // namespace

TEST_CASE("every entry of a column reduction shared by a middle axis gives the per-thread entry's bits",
          "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  auto fast = rttest::gpuOrSkip(MathMode::Default);
  REQUIRE(fast);
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("hoisted_column_kernels.hpp");
  std::set<std::string> entriesRun;
  std::size_t comparedWithCpu = 0;
  for (const HoistedSpec& spec : hoistedSpecs()) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == LoopPlan::HoistedColumnReduction);
    const Scalar element = fn->returnType.scalar;
    for (const Extent& x : hoistedExtents()) {
      INFO("extents " << x.ni << " x " << x.nj << " x " << x.nk << ", arrays offset by " << x.offset);
      const LaunchPlan plan = LaunchPlanner::for3D(x.ni, x.nj, x.nk, 32, 4, 2);
      const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
      REQUIRE(choice);
      entriesRun.insert(fn->planEntries.at(choice->entry).kernelName);
      requireEntryAgrees(*strict, *fast, *cpu, module, *fn, spec.args(x.ni, x.nj, x.nk), plan, x.offset, element,
                         x.ni * x.nj * x.nk <= 200000, comparedWithCpu);
    }
  }
  WARN("column entries shared by a middle axis run: " << entriesRun.size() << "; " << comparedWithCpu
                                                      << " compared with the CPU backend");
  // Every kernel took both entries (128 columns per block and 64).
  REQUIRE(entriesRun.size() == 2 * hoistedSpecs().size());
  REQUIRE(comparedWithCpu >= 6u);
}

// ---- min/max row reductions: the loop's own bits on inputs full of NaNs, zeros and ties ----------

#include "data/extremum_kernels.hpp"

namespace {

// Rows of few distinct values, so that ties are everywhere: row r of `n` draws from the zeros of
// both signs and NaNs of both signs (r % 3 == 0), adds -1 and -inf (1), or every special value
// (2); integers from [-1, 1], [-3, 3] or [-1000, 1000].
Fill specialValues(std::int64_t n) {
  return [n](Scalar element, std::size_t count, unsigned seed) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const std::vector<double> pools[3] = {{0.0, -0.0, nan, -nan},
                                          {0.0, -0.0, -1.0, -inf, nan, -0.0},
                                          {nan, -nan, 0.0, -0.0, 1.0, -1.0, 0.5, inf, -inf, 1.0}};
    const int spans[3] = {1, 3, 1000};
    std::vector<std::byte> bytes(count * byteSize(element));
    std::mt19937 rng(seed);
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t kind = n > 0 ? static_cast<std::size_t>(k / static_cast<std::size_t>(n) % 3) : 0;
      std::byte* at = bytes.data() + k * byteSize(element);
      const double v = pools[kind][rng() % pools[kind].size()];
      const int w = static_cast<int>(rng() % static_cast<unsigned>(2 * spans[kind] + 1)) - spans[kind];
      if (element == Scalar::F32) {
        const float f = static_cast<float>(v);
        std::memcpy(at, &f, 4);
      } else if (element == Scalar::F64) {
        std::memcpy(at, &v, 8);
      } else if (element == Scalar::I16) {
        const auto h = static_cast<std::int16_t>(w);
        std::memcpy(at, &h, 2);
      } else {
        std::memcpy(at, &w, 4);
      }
    }
    return bytes;
  };
}

struct ExtremumSpec {
  const char* name;
  Scalar element;
  // The function compiled natively: row i of x (rows of n).
  std::function<std::vector<std::byte>(const std::vector<std::byte>& x, int n, int rows)> native;
};

template <typename T, typename R> auto nativeRows(R (*f)(const T*, int, int)) {
  return [f](const std::vector<std::byte>& x, int n, int rows) {
    std::vector<T> typed(x.size() / sizeof(T));
    if (!typed.empty()) std::memcpy(typed.data(), x.data(), x.size());
    std::vector<std::byte> out(static_cast<std::size_t>(rows) * sizeof(R));
    for (int i = 0; i < rows; ++i) {
      const R r = f(typed.data(), n, i);
      std::memcpy(out.data() + static_cast<std::size_t>(i) * sizeof(R), &r, sizeof(R));
    }
    return out;
  };
}

const std::vector<ExtremumSpec>& extremumSpecs() {
  static const std::vector<ExtremumSpec> all = {
      {"RowMax", Scalar::F32, nativeRows(RowMax)},         {"RowMaxTernary", Scalar::F32, nativeRows(RowMaxTernary)},
      {"RowMinLast", Scalar::F32, nativeRows(RowMinLast)}, {"RowFmax", Scalar::F64, nativeRows(RowFmax)},
      {"ArgMax", Scalar::F32, nativeRows(ArgMax)},         {"ArgMinLast", Scalar::F64, nativeRows(ArgMinLast)},
      {"IntArgMax", Scalar::I32, nativeRows(IntArgMax)},   {"ShortMaxLater", Scalar::I16, nativeRows(ShortMaxLater)},
      {"RowRange", Scalar::F32, nativeRows(RowRange)},
  };
  return all;
}

// The launch shapes: rows of 0, 1, 31, 32, 33 and 1000+ iterations, few rows and many.
std::vector<std::pair<std::int64_t, std::int64_t>> extremumShapes() {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (std::int64_t rows : {1, 3, 7, 100})
    for (std::int64_t n : {0, 1, 2, 31, 32, 33, 63, 513, 1000, 4097}) out.emplace_back(rows, n);
  if (!smallOnly()) {
    out.emplace_back(70001, 33);   // more rows than one block per multiprocessor covers
    out.emplace_back(5000, 1000);  // many rows of many
    out.emplace_back(3, 1000003);  // few long rows
  }
  return out;
}

// The arguments of a kernel of `spec` over `rows` rows of `n` (x has one element more: RowMax
// reads x[i * n] before its loop, also where n is 0).
std::vector<ArgSpec> extremumArgs(const ExtremumSpec& spec, std::int64_t rows, std::int64_t n) {
  return {array(spec.element, rows * n + 1), scalar(asInt(n))};
}

}  // namespace

TEST_CASE("min/max row reductions give the per-thread entry's bits and the CPU backend's, on NaNs, zeros and ties",
          "[gpu][sanitize]") {
  auto gpu = rttest::gpuOrSkip(MathMode::Strict);
  if (!gpu) return;
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("extremum_kernels.hpp");
  std::size_t launches = 0, comparedWithCpu = 0;
  for (const ExtremumSpec& spec : extremumSpecs()) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == LoopPlan::ExtremumRowReduction);
    const Scalar result = fn->returnType.scalar;
    for (const auto& [rows, n] : extremumShapes()) {
      INFO(rows << " rows of " << n);
      const LaunchPlan plan = LaunchPlanner::for1D(rows, 256);
      LaunchPlan perThread = plan;
      perThread.perThread = true;
      const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, gpu->device());
      REQUIRE(choice);
      REQUIRE(fn->planEntries.at(choice->entry).kernelName == std::string(spec.name) + "_extremum");
      const std::vector<ArgSpec> args = extremumArgs(spec, rows, n);
      const Fill fill = specialValues(n);
      for (std::size_t offset : {0, 1}) {
        const auto planned = launch(*gpu, module, *fn, args, plan, offset, fill);
        const auto reference = launch(*gpu, module, *fn, args, perThread, offset, fill);
        REQUIRE(firstDifference(planned, reference, result) == -1);
        launches += 2;
        if (rows * n <= 200000) {
          REQUIRE(firstDifference(planned, launch(*cpu, module, *fn, args, plan, offset, fill), result) == -1);
          ++comparedWithCpu;
          CHECK(requirePartsAgree(*gpu, *cpu, module, *fn, args, plan, offset, result, true, true, fill) ==
                (rows >= 2 ? 2u : 0u));
        }
      }
    }
  }
  WARN("min/max row reductions: " << launches << " GPU launches, " << comparedWithCpu << " compared with the CPU");
  REQUIRE(comparedWithCpu >= 9 * 40u);
}

TEST_CASE("a min/max row reduction's CPU launch gives the native loop's bits", "[cpu]") {
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("extremum_kernels.hpp");
  std::size_t rowsCompared = 0, signedZeros = 0, nans = 0;
  for (const ExtremumSpec& spec : extremumSpecs()) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    REQUIRE(fn->loopPlan == LoopPlan::ExtremumRowReduction);
    const Scalar result = fn->returnType.scalar;
    for (std::int64_t n : {0, 1, 31, 32, 33, 1000}) {
      INFO(spec.name << ", rows of " << n);
      const std::int64_t rows = 12;
      const std::vector<ArgSpec> args = extremumArgs(spec, rows, n);
      const Fill fill = specialValues(n);
      const auto got = launch(*cpu, module, *fn, args, LaunchPlanner::for1D(rows, 256), 0, fill);
      const std::vector<std::byte> x = fill(spec.element, static_cast<std::size_t>(rows * n + 1), 7);
      const std::vector<std::byte> expected = spec.native(x, asInt(n), asInt(rows));
      // Bit for bit: a NaN the loop keeps is an element's NaN, and a zero has its element's sign;
      // std::fmax of two NaNs is a NaN of no promised bits, and the native library leaves the sign
      // of fmax(-0.0, +0.0) open where culift says +0.0 (numerical-contract.md): equal values there.
      REQUIRE(got.size() >= expected.size());
      if (fn->name == "RowFmax")
        REQUIRE(firstDifference(std::vector<std::byte>(got.begin(), got.begin() + expected.size()), expected, result, 0,
                                1e-300) == -1);
      else REQUIRE(std::memcmp(got.data(), expected.data(), expected.size()) == 0);
      rowsCompared += static_cast<std::size_t>(rows);
      for (std::size_t k = 0; isFloating(result) && k < expected.size(); k += byteSize(result)) {
        const double v = floatAt(expected, k, result);
        signedZeros += v == 0 && std::signbit(v);
        nans += std::isnan(v);
      }
    }
  }
  CHECK(rowsCompared == 9 * 6 * 12);
  // The inputs reach the cases that matter: rows whose result is -0.0, and rows whose result is NaN.
  CHECK(signedZeros > 0);
  CHECK(nans > 0);
}

namespace {

// A batched kernel of loop_plan_kernels.hpp: its arguments for nb batches of ni x nj outputs and a
// loop of nk iterations.
struct BatchedSpec {
  const char* name;
  std::function<std::vector<ArgSpec>(std::int64_t nb, std::int64_t ni, std::int64_t nj, std::int64_t nk)> args;
};

const std::vector<BatchedSpec>& batchedSpecs() {
  using S = Scalar;
  static const std::vector<BatchedSpec> all = {
      {"BatchedGemm",
       [](auto nb, auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, nb * ni * nk),
                            array(S::F32, nb * nk * nj),
                            array(S::F32, nb * ni * nj),
                            scalar(1.5f),
                            scalar(asInt(ni)),
                            scalar(asInt(nk)),
                            scalar(asInt(nj))};
       }},
      {"Doitgen",
       [](auto nb, auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, nb * ni * nk), array(S::F32, nk * nj), scalar(asInt(ni)), scalar(asInt(nj)),
                            scalar(asInt(nk))};
       }},
      {"BatchedLower",
       [](auto nb, auto ni, auto nj, auto nk) {
         return std::vector{array(S::F64, nb * ni * nk), array(S::F32, nj * nk), scalar(asInt(ni)), scalar(asInt(nk))};
       }},
  };
  return all;
}

struct BatchedExtent {
  std::int64_t nb, ni, nj, nk;
  std::size_t offset;
};

// Batch counts 1 and odd, tiles left partial in i and j, loops of 0, 1, 3 and 17 iterations; the
// last ones large enough for the 128 x 128 tiles.
std::vector<BatchedExtent> batchedExtents() {
  std::vector<BatchedExtent> out;
  for (std::int64_t nb : {1, 3, 7})
    for (std::int64_t side : {1, 7, 129})
      for (std::int64_t nk : {0, 1, 3, 17})
        out.push_back({nb, side, side == 129 ? 200 : side + 2, nk, static_cast<std::size_t>((nb + nk) % 2)});
  out.push_back({3, 1000, 700, 3, 1});
  out.push_back({33, 256, 256, 5, 0});
  if (!smallOnly()) out.push_back({9, 300, 257, 1025, 1});
  return out;
}

}  // namespace

TEST_CASE("every batched contraction entry gives the per-thread entry's bits and the CPU backend's",
          "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  auto fast = rttest::gpuOrSkip(MathMode::Default);
  REQUIRE(fast);
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("loop_plan_kernels.hpp");
  std::set<std::string> entriesRun, entriesDeclared;
  std::size_t comparedWithCpu = 0;
  for (const BatchedSpec& spec : batchedSpecs()) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == LoopPlan::BatchedTiledContraction);
    for (const PlanEntry& e : fn->planEntries) entriesDeclared.insert(e.kernelName);
    const Scalar element = fn->returnType.scalar;
    for (const BatchedExtent& x : batchedExtents()) {
      INFO(x.nb << " batches of " << x.ni << " x " << x.nj << ", k " << x.nk << ", arrays offset by " << x.offset);
      const LaunchPlan plan = LaunchPlanner::for3D(x.nb, x.ni, x.nj, 32, 4, 2);
      const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
      REQUIRE(choice);  // every launch here must run a plan entry
      entriesRun.insert(fn->planEntries.at(choice->entry).kernelName);
      INFO("entry " << fn->planEntries.at(choice->entry).kernelName << " " << choice->plan.toString());
      requireEntryAgrees(*strict, *fast, *cpu, module, *fn, spec.args(x.nb, x.ni, x.nj, x.nk), plan, x.offset, element,
                         x.nb * x.ni * x.nj * std::max<std::int64_t>(x.nk, 1) <= 200000, comparedWithCpu);
    }
  }
  WARN("batched entries run: " << entriesRun.size() << " of " << entriesDeclared.size() << "; " << comparedWithCpu
                               << " compared with the CPU backend");
  REQUIRE(entriesRun == entriesDeclared);
  REQUIRE(comparedWithCpu >= 30u);
}

// ---- scans -----------------------------------------------------------------------------------

namespace {

struct ScanSpec {
  const char* name;
  Scalar element;  // of every array it reads and writes
  unsigned reads, writes;
};

// The launch's arguments: the read arrays, the written ones, n.
std::vector<ArgSpec> scanArgs(const ScanSpec& s, std::int64_t rows, std::int64_t n) {
  std::vector<ArgSpec> args;
  for (unsigned a = 0; a < s.reads + s.writes; ++a) args.push_back(array(s.element, rows * n));
  args.push_back(scalar(asInt(n)));
  return args;
}

}  // namespace

TEST_CASE("every scan entry gives the per-thread entry's bits and the CPU backend's", "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  auto fast = rttest::gpuOrSkip(MathMode::Default);
  REQUIRE(fast);
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("scan_kernels.hpp");
  const std::vector<ScanSpec> specs = {{"CumSum", Scalar::F32, 1, 1},
                                       {"CumProd", Scalar::F64, 1, 1},
                                       {"CumMax", Scalar::F32, 1, 1},
                                       {"TwoOut", Scalar::F32, 2, 2}};
  std::set<std::string> entriesRun, entriesDeclared;
  std::size_t comparedWithCpu = 0;
  for (const ScanSpec& spec : specs) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == LoopPlan::Scan);
    for (const PlanEntry& e : fn->planEntries) entriesDeclared.insert(e.kernelName);
    const std::int64_t tile = 128 / static_cast<std::int64_t>(byteSize(spec.element));  // columns per tile
    std::vector<std::pair<std::int64_t, std::int64_t>> shapes;                          // (rows, n)
    for (std::int64_t rows : {1, 31, 33, 1000})
      for (std::int64_t n :
           {std::int64_t{0}, std::int64_t{1}, tile - 1, tile, tile + 1, 4 * tile + 3, std::int64_t{4099}})
        shapes.push_back({rows, n});
    shapes.push_back({70001, 5});                     // more rows than the grid's warps: each warp's loop over rows
    shapes.push_back({16384, 300});                   // enough rows for two warps per block
    if (!smallOnly()) shapes.push_back({8, 100003});  // many tiles in flight
    for (const auto& [rows, n] : shapes)
      for (std::size_t offset : {0, 1}) {  // rows 16-byte aligned, or not
        INFO(rows << " rows of " << n << ", arrays offset by " << offset);
        const LaunchPlan plan = LaunchPlanner::for1D(rows, 256);
        LaunchPlan perThread = plan;
        perThread.perThread = true;
        const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
        REQUIRE(choice);  // every launch here must run a plan entry
        entriesRun.insert(fn->planEntries.at(choice->entry).kernelName);
        INFO("entry " << fn->planEntries.at(choice->entry).kernelName << " " << choice->plan.toString());
        const std::vector<ArgSpec> args = scanArgs(spec, rows, n);
        for (Engine* engine : {strict.get(), fast.get()}) {
          const bool exact = engine == strict.get();
          INFO((exact ? "strict" : "default") << " math");
          const auto planned = launch(*engine, module, *fn, args, plan, offset);
          const auto reference = launch(*engine, module, *fn, args, perThread, offset);
          REQUIRE(firstDifference(planned, reference, spec.element, exact ? 0 : 1e-5) == -1);
          if (exact && rows * std::max<std::int64_t>(n, 1) <= 200000) {
            REQUIRE(firstDifference(planned, launch(*cpu, module, *fn, args, plan, offset), spec.element) == -1);
            ++comparedWithCpu;
            CHECK(requirePartsAgree(*engine, *cpu, module, *fn, args, plan, offset, spec.element, true, true) ==
                  (rows >= 2 ? 2u : 0u));
          }
        }
      }
  }
  WARN("scan entries run: " << entriesRun.size() << " of " << entriesDeclared.size() << "; " << comparedWithCpu
                            << " compared with the CPU backend");
  REQUIRE(entriesRun == entriesDeclared);
  REQUIRE(comparedWithCpu >= 100u);
}

namespace {

// A convolution's launch: n images of c channels, k filters r x r, the stride and padding, and the
// output's oh x ow positions (the input's extent follows).
struct ConvShape {
  std::int64_t n, c, k, r, stride, pad, oh, ow;
  std::int64_t h() const { return (oh - 1) * stride + r - 2 * pad; }
  std::int64_t w() const { return (ow - 1) * stride + r - 2 * pad; }
};

// Strides 1, 2, 4; paddings 0, 1, 2 (partial windows at every border); filters 1 x 1, 3 x 3,
// 11 x 11; channels 1 and 3; outputs smaller than a tile and not multiples of one, for both
// entries (the smaller tile for one image, the larger for many); KernelBench's shape cut down.
std::vector<ConvShape> convShapes() {
  std::vector<ConvShape> out;
  for (std::int64_t stride : {1, 2, 4})
    for (std::int64_t pad : {0, 1, 2})
      for (std::int64_t r : {1, 3, 11})
        for (std::int64_t c : {1, 3}) {
          if (pad >= r) continue;  // every window reads some input
          const ConvShape small{1, c, 5, r, stride, pad, 3, 7};
          const ConvShape many{3, c, 40, r, stride, pad, 9 + stride, 13};
          for (const ConvShape& s : {small, many})
            if (s.h() >= 1 && s.w() >= 1) out.push_back(s);
        }
  const std::size_t few = out.size();
  // The 64 x 128 tiles: of 96 channels (KernelBench's filters; 70 channels too), of 64 (128 channels).
  out.push_back({16, 3, 96, 11, 4, 2, 23, 23});
  out.push_back({2, 3, 70, 3, 1, 1, 55, 50});
  out.push_back({1, 3, 128, 3, 1, 0, 128, 128});  // one image with blocks enough for the 64 x 128 tiles
  if (smallOnly()) {                              // under compute-sanitizer: the small shapes and one of each tile
    out.erase(std::remove_if(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(few),
                             [](const ConvShape& s) { return s.n * s.k * s.oh * s.ow > 1000 || s.r == 11; }),
              out.begin() + static_cast<std::ptrdiff_t>(few));
    out.erase(std::remove_if(out.begin(), out.end(), [](const ConvShape& s) { return s.k == 70; }), out.end());
  }
  return out;
}

}  // namespace

TEST_CASE("every convolution entry gives the per-thread entry's bits and the CPU backend's", "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  auto fast = rttest::gpuOrSkip(MathMode::Default);
  REQUIRE(fast);
  auto cpu = Engine::createCpu();
  const std::shared_ptr<const Module> module = translatedData("convolution_kernels.hpp");
  std::set<std::string> entriesRun, entriesDeclared;
  std::size_t compared = 0, comparedWithCpu = 0;
  for (const char* name : {"Conv2D", "ValidConv"}) {
    const Function* fn = module->find(name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << culift::name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == LoopPlan::Convolution);
    for (const PlanEntry& e : fn->planEntries) entriesDeclared.insert(e.kernelName);
    const bool padded = std::string(name) == "Conv2D";
    const Scalar element = fn->returnType.scalar;
    for (ConvShape s : convShapes()) {
      if (!padded) {  // one image; valid windows only
        s.n = 1;
        s.pad = 0;
      }
      INFO(s.n << " images of " << s.c << " channels, " << s.k << " filters " << s.r << " x " << s.r << ", stride "
               << s.stride << ", pad " << s.pad << ", out " << s.oh << " x " << s.ow);
      const LaunchPlan plan = LaunchPlanner::for3D(s.n * s.k, s.oh, s.ow, 32, 4, 2);
      LaunchPlan perThread = plan;
      perThread.perThread = true;
      const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
      REQUIRE(choice);  // every launch here must run a plan entry
      entriesRun.insert(fn->planEntries.at(choice->entry).kernelName);
      INFO("entry " << fn->planEntries.at(choice->entry).kernelName << " " << choice->plan.toString());
      const Scalar in = padded ? Scalar::F32 : Scalar::F64;
      std::vector<ArgSpec> args = {array(in, s.n * s.c * s.h() * s.w()), array(in, s.k * s.c * s.r * s.r),
                                   scalar(asInt(s.c)), scalar(asInt(s.h())), scalar(asInt(s.w()))};
      if (padded) args.push_back(scalar(asInt(s.k)));
      for (std::int64_t v : {s.r, s.r, s.stride}) args.push_back(scalar(asInt(v)));
      if (padded) args.push_back(scalar(asInt(s.pad)));
      for (Engine* engine : {strict.get(), fast.get()}) {
        const bool exact = engine == strict.get();
        INFO((exact ? "strict" : "default") << " math");
        const std::size_t offset = static_cast<std::size_t>(s.oh % 2);
        const auto planned = launch(*engine, module, *fn, args, plan, offset);
        const auto reference = launch(*engine, module, *fn, args, perThread, offset);
        REQUIRE(firstDifference(planned, reference, element, exact ? 0 : 1e-5) == -1);
        ++compared;
        if (exact && s.n * s.k * s.oh * s.ow * s.c * s.r * s.r <= 2000000) {
          REQUIRE(firstDifference(planned, launch(*cpu, module, *fn, args, plan, offset), element) == -1);
          ++comparedWithCpu;
        }
      }
    }
  }
  WARN("convolution entries run: " << entriesRun.size() << " of " << entriesDeclared.size() << "; " << compared
                                   << " launches compared, " << comparedWithCpu << " with the CPU backend");
  REQUIRE(entriesRun == entriesDeclared);
  REQUIRE(comparedWithCpu >= 40u);
}

namespace {

// A kernel of tensor_core_kernels.hpp: its arguments for ni x nj outputs of nk terms, its format's
// unit roundoff, and each output's exact value and bound (docs/numerical-contract.md#tensor-cores)
// from its arrays (in the order of its array parameters).
struct TensorCoreSpec {
  const char* name;
  double unitRoundoff;
  std::function<std::vector<ArgSpec>(std::int64_t ni, std::int64_t nj, std::int64_t nk)> args;
  // (arrays, ni, nj, nk, i, j) -> {exact, bound}
  std::function<std::pair<double, double>(const std::vector<std::vector<float>>&, std::int64_t, std::int64_t,
                                          std::int64_t, std::int64_t, std::int64_t, double)>
      exact;
};

// The sum of a_k b_k over k and of |a_k b_k|, A row i of (ni x nk), B column j of (nk x nj) or,
// transposed, row j of (nj x nk).
std::pair<double, double> dot(const std::vector<float>& A, const std::vector<float>& B, std::int64_t nj,
                              std::int64_t nk, std::int64_t i, std::int64_t j, bool transposed) {
  double s = 0, m = 0;
  for (std::int64_t k = 0; k < nk; ++k) {
    const double p = static_cast<double>(A[i * nk + k]) * (transposed ? B[j * nk + k] : B[k * nj + j]);
    s += p;
    m += std::fabs(p);
  }
  return {s, m};
}

using rttest::contractionBound;

const std::vector<TensorCoreSpec>& tensorCoreSpecs() {
  using S = Scalar;
  static const std::vector<TensorCoreSpec> all = {
      {"GemmTf32", rttest::kTf32Roundoff,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, nk * nj), array(S::F32, ni * nj), scalar(1.5f),
                            scalar(-0.5f),          scalar(asInt(nk)),      scalar(asInt(nj))};
       },
       [](const auto& a, auto, auto nj, auto nk, auto i, auto j, double u) {
         const auto [s, m] = dot(a[0], a[1], nj, nk, i, j, false);
         const double c = a[2][i * nj + j];
         return std::pair{-0.5 * c + 1.5 * s,
                          1.5 * contractionBound(u, nk, m) + 0x1p-22 * (0.5 * std::fabs(c) + 1.5 * m)};
       }},
      {"GemmBf16", rttest::kBf16Roundoff,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, nj * nk), array(S::F32, ni * nj), scalar(asInt(nk)),
                            scalar(asInt(nj))};
       },
       [](const auto& a, auto, auto nj, auto nk, auto i, auto j, double u) {
         const auto [s, m] = dot(a[0], a[1], nj, nk, i, j, true);
         const double c = a[2][i * nj + j];
         return std::pair{c + s, contractionBound(u, nk, std::fabs(c) + m) + 0x1p-23 * (std::fabs(c) + m)};
       }},
      {"GemmFp16", rttest::kFp16Roundoff,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, nk * nj), scalar(asInt(nk)), scalar(asInt(nj))};
       },
       [](const auto& a, auto, auto nj, auto nk, auto i, auto j, double u) {
         const auto [s, m] = dot(a[0], a[1], nj, nk, i, j, false);
         return std::pair{s, contractionBound(u, nk, m) + 0x1p-23 * m};
       }},
  };
  return all;
}

}  // namespace

TEST_CASE("tensor-core entries stay within the contract's bound of the exact sums, every format", "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  auto fast = rttest::gpuOrSkip(MathMode::Default);
  REQUIRE(fast);
  const std::shared_ptr<const Module> module = translatedData("tensor_core_kernels.hpp");
  std::set<std::string> entriesRun, entriesDeclared;
  std::size_t checked = 0;
  // Partial tiles, k not a multiple of a step, k of 1 and 0; launches that take the 64-wide tiles
  // (few blocks), the 128-wide ones and (on sm_90) the 256-row ones; arrays one element off their
  // alignment (odd rows) and aligned (the copies in 16-byte groups).
  const std::vector<std::tuple<std::int64_t, std::int64_t, std::int64_t>> shapes = {{70, 90, 37},     {130, 129, 16},
                                                                                    {5, 130, 1},      {33, 17, 0},
                                                                                    {1000, 999, 257}, {1536, 1400, 40},
                                                                                    {2048, 2048, 64}};
  for (const TensorCoreSpec& spec : tensorCoreSpecs()) {
    const Function* fn = module->find(spec.name);
    REQUIRE(fn);
    INFO("kernel " << fn->name << ": " << name(fn->loopPlan) << " " << fn->loopPlanReason);
    REQUIRE(fn->loopPlan == LoopPlan::TensorCoreContraction);
    // The entries this device takes: on sm_90 the entries on warpgroups in place of the 128-wide
    // mma.sync one, elsewhere not those entries.
    const bool hopper = strict->device().arch() == 90;
    const bool warpgroups = std::any_of(fn->planEntries.begin(), fn->planEntries.end(),
                                        [](const PlanEntry& e) { return onWarpgroups(e); });
    for (const PlanEntry& e : fn->planEntries)
      if (onWarpgroups(e) ? hopper : !(hopper && warpgroups && e.tileRows == 128)) entriesDeclared.insert(e.kernelName);
    for (const auto& [ni, nj, nk] : shapes) {
      INFO(ni << " x " << nj << ", k " << nk);
      const LaunchPlan plan = LaunchPlanner::for2D(ni, nj, 32, 8);
      LaunchPlan perThread = plan;
      perThread.perThread = true;
      const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
      REQUIRE(choice);
      const std::string entry = fn->planEntries.at(choice->entry).kernelName;
      entriesRun.insert(entry);
      INFO("entry " << entry << " " << choice->plan.toString());
      const std::vector<ArgSpec> args = spec.args(ni, nj, nk);
      std::vector<std::vector<float>> arrays;
      unsigned seed = kFirstArraySeed;
      for (const ArgSpec& a : args) {
        if (!a.isArray) continue;
        const std::vector<std::byte> bytes = makeValues(Scalar::F32, a.count, seed++);
        std::vector<float>& v = arrays.emplace_back(a.count);
        if (!bytes.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
      }
      const std::size_t offset = static_cast<std::size_t>(ni % 2);
      const auto written = launch(*strict, module, *fn, args, perThread, offset);
      for (Engine* engine : {strict.get(), fast.get()}) {
        INFO((engine == strict.get() ? "strict" : "default") << " math");
        // The read-back is the whole buffer: output o at element offset + o.
        const auto got = launch(*engine, module, *fn, args, plan, offset);
        REQUIRE(got.size() == (static_cast<std::size_t>(ni * nj) + offset + 1) * 4);
        if (nk == 0) {  // no product: the statements before and after the loop, as written
          if (engine == strict.get()) REQUIRE(firstDifference(got, written, Scalar::F32) == -1);
          continue;
        }
        std::size_t differ = 0, outside = 0;
        std::ostringstream first;
        for (std::int64_t i = 0; i < ni; ++i)
          for (std::int64_t j = 0; j < nj; ++j) {
            const std::size_t o = offset + static_cast<std::size_t>(i * nj + j);
            float value;
            std::memcpy(&value, got.data() + o * 4, 4);
            const auto [exact, bound] = spec.exact(arrays, ni, nj, nk, i, j, spec.unitRoundoff);
            if (!(std::fabs(static_cast<double>(value) - exact) <= bound) && outside++ == 0)
              first << "output (" << i << ", " << j << "): " << value << ", exact " << exact << ", bound " << bound;
            differ += std::memcmp(got.data() + o * 4, written.data() + o * 4, 4) != 0;
          }
        INFO(first.str());
        REQUIRE(outside == 0);
        CHECK(differ > 0);  // the operands were rounded: not the loop as written
        ++checked;
      }
    }
  }
  WARN("tensor-core entries run: " << entriesRun.size() << " of " << entriesDeclared.size() << "; " << checked
                                   << " launches checked against the bound");
  REQUIRE(entriesRun == entriesDeclared);
}

TEST_CASE("batched tensor-core entries stay within the contract's bound of the exact sums", "[gpu][sanitize]") {
  auto strict = rttest::gpuOrSkip(MathMode::Strict);
  if (!strict) return;
  const std::shared_ptr<const Module> module = translatedData("tensor_core_kernels.hpp");
  const Function* fn = module->find("BatchedTf32");
  REQUIRE(fn);
  INFO(name(fn->loopPlan) << " " << fn->loopPlanReason);
  REQUIRE(fn->loopPlan == LoopPlan::BatchedTensorCoreContraction);
  std::set<std::string> entriesRun;
  // Batch counts of 1 and odd, partial tiles, k of 0, 1 and several tiles; the 128-wide tiles for
  // launches that fill the device.
  for (const auto& [nb, m, nk, n] : {std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>{1, 130, 37, 70},
                                     {3, 33, 20, 70},
                                     {5, 17, 1, 19},
                                     {3, 8, 0, 8},
                                     {8, 512, 40, 512}}) {
    INFO(nb << " batches of " << m << " x " << n << ", k " << nk);
    const LaunchPlan plan = LaunchPlanner::for3D(nb, m, n, 32, 8, 1);
    LaunchPlan perThread = plan;
    perThread.perThread = true;
    const std::optional<PlanChoice> choice = choosePlanEntry(*fn, plan, strict->device());
    REQUIRE(choice);
    entriesRun.insert(fn->planEntries.at(choice->entry).kernelName);
    const std::vector<ArgSpec> args = {array(Scalar::F32, nb * m * nk), array(Scalar::F32, nb * nk * n),
                                       scalar(asInt(m)), scalar(asInt(nk)), scalar(asInt(n))};
    const std::vector<std::byte> a = makeValues(Scalar::F32, static_cast<std::size_t>(nb * m * nk), kFirstArraySeed),
                                 b = makeValues(Scalar::F32, static_cast<std::size_t>(nb * nk * n),
                                                kFirstArraySeed + 1);
    auto at = [](const std::vector<std::byte>& v, std::int64_t e) {
      float f;
      std::memcpy(&f, v.data() + e * 4, 4);
      return static_cast<double>(f);
    };
    const auto got = launch(*strict, module, *fn, args, plan, 1);
    const auto written = launch(*strict, module, *fn, args, perThread, 1);
    if (nk == 0) {
      REQUIRE(firstDifference(got, written, Scalar::F32) == -1);
      continue;
    }
    std::size_t outside = 0, differ = 0;
    for (std::int64_t bi = 0; bi < nb; ++bi)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double s = 0, mag = 0;
          for (std::int64_t k = 0; k < nk; ++k) {
            const double p = at(a, (bi * m + i) * nk + k) * at(b, (bi * nk + k) * n + j);
            s += p;
            mag += std::fabs(p);
          }
          const std::int64_t o = 1 + (bi * m + i) * n + j;  // the arrays sit one element into their buffers
          outside += !(std::fabs(at(got, o) - s) <= contractionBound(rttest::kTf32Roundoff, nk, mag) + 0x1p-23 * mag);
          differ += std::memcmp(got.data() + o * 4, written.data() + o * 4, 4) != 0;
        }
    REQUIRE(outside == 0);
    CHECK(differ > 0);
  }
  REQUIRE(entriesRun.size() == fn->planEntries.size());
}

TEST_CASE("measured entry choices give the rules' bits, are kept on disk and read back", "[gpu][tuning]") {
  if (!rttest::gpuOrSkip()) return;
  culift::test::TempDir cache("culift-tuning-gpu");
  const char* before = std::getenv("CULIFT_TUNE");
  const std::string saved = before ? before : "";
  ::setenv("CULIFT_TUNE", "1", 1);
  EngineOptions options;
  options.math = MathMode::Strict;
  options.cacheDir = cache.path();
  std::shared_ptr<Engine> tuned = Engine::tryCreate(options);
  REQUIRE(tuned);
  const std::string table = TuningTable::fileFor(cache.path(), tuned->device());
  options.tuneEntries = false;
  std::shared_ptr<Engine> rules = Engine::tryCreate(options);
  REQUIRE(rules);
  struct Case {
    const char* data;
    const char* kernel;
    std::int64_t ni, nj, nk;
    std::vector<ArgSpec> args;
  };
  const std::vector<Case> cases = {
      // A tiled contraction at a shape where both tiles fill the device, partial tiles and a k of 300.
      {"loop_plan_kernels.hpp",
       "Gemm",
       1000,
       1100,
       300,
       {array(Scalar::F32, 1000 * 300), array(Scalar::F32, 300 * 1100), array(Scalar::F32, 1000 * 1100), scalar(1.5f),
        scalar(-0.5f), scalar(300), scalar(1100)}},
      // The 27-point convolution: wide and narrow tiles, slabs of every length, partial tiles.
      {"stencil_kernels.hpp",
       "Conv",
       70,
       100,
       230,
       {array(Scalar::F32, 70 * 100 * 230), array(Scalar::F32, 27), scalar(70), scalar(100), scalar(230)}},
  };
  std::size_t stored = 0;
  for (const Case& c : cases) {
    INFO(c.kernel << " " << c.ni << " x " << c.nj << " x " << c.nk);
    const std::shared_ptr<const Module> module = translatedData(c.data);
    const Function* fn = module->find(c.kernel);
    REQUIRE(fn);
    const LaunchPlan plan = fn->mode == IndexMode::Grid3D ? LaunchPlanner::for3D(c.ni, c.nj, c.nk)
                                                          : LaunchPlanner::for2D(c.ni, c.nj);
    const std::vector<PlanChoice> candidates = planCandidates(*fn, plan, tuned->device());
    REQUIRE(candidates.size() > 1);
    LaunchPlan perThread = plan;
    perThread.perThread = true;
    const std::vector<std::byte> want = launch(*rules, module, *fn, c.args, perThread, 1);
    // A launch on `engine`: the per-thread entry's bits, measured or not, the entry `expect` where
    // given; what it ran.
    auto launchAs = [&](Engine& engine, bool measured, const PlanChoice* expect) {
      std::optional<EntryLaunch> ran;
      const std::vector<std::byte> got = launch(engine, module, *fn, c.args, plan, 1, {}, &ran);
      REQUIRE(ran);
      REQUIRE(ran->choice);
      CHECK(ran->measured == measured);
      if (expect) {
        CHECK(ran->choice->entry == expect->entry);
        CHECK(ran->choice->plan.grid == expect->plan.grid);
      }
      REQUIRE(firstDifference(got, want, Scalar::F32) == -1);
      return *ran->choice;
    };
    launchAs(*rules, false, &candidates[0]);
    // The shape's first launch runs the rules' choice untimed; the second times the candidates and
    // stores the fastest, its results the launch's own.
    launchAs(*tuned, false, &candidates[0]);
    CHECK(TuningTable(table).size() == stored);
    const PlanChoice picked = launchAs(*tuned, true, nullptr);
    ++stored;
    REQUIRE(llvm::sys::fs::exists(table));
    TuningTable onDisk(table);
    CHECK(onDisk.size() == stored);
    WARN(c.kernel << ": measured choice " << fn->planEntries[picked.entry].kernelName << " grid (" << picked.plan.grid.x
                  << ", " << picked.plan.grid.y << ", " << picked.plan.grid.z << ") of " << candidates.size()
                  << " candidates");
    CHECK(std::any_of(candidates.begin(), candidates.end(),
                      [&](const PlanChoice& k) { return k.entry == picked.entry && k.plan.grid == picked.plan.grid; }));
    // Another engine on the same cache: the table's choice, without timing again.
    options.tuneEntries = true;
    std::shared_ptr<Engine> again = Engine::tryCreate(options);
    REQUIRE(again);
    launchAs(*again, true, &picked);
    CHECK(TuningTable(table).size() == stored);
  }
  // A kernel that writes its arguments is never timed on them: the rules' choice, unmeasured.
  {
    const std::shared_ptr<const Module> module = translatedData("stencil_kernels.hpp");
    const Function* fn = module->find("Box");
    REQUIRE(fn);
    const LaunchPlan plan = LaunchPlanner::for2D(2000, 3000);
    REQUIRE(planCandidates(*fn, plan, tuned->device()).size() > 1);
    std::optional<EntryLaunch> ran;
    for (int repeat = 0; repeat < 2; ++repeat) {
      launch(*tuned, module, *fn,
             {array(Scalar::F32, 2000 * 3000), array(Scalar::F32, 2000 * 3000), scalar(2000), scalar(3000)}, plan, 0,
             {}, &ran);
      REQUIRE(ran);
      REQUIRE(ran->choice);
      CHECK_FALSE(ran->measured);
    }
    CHECK(TuningTable(table).size() == stored);
  }
  // An engine compiling kernel by kernel times only the rules' entry in its other grids.
  {
    culift::test::TempDir own("culift-tuning-each");
    EngineOptions each = options;
    each.cacheDir = own.path();
    each.tuneEntries = true;
    each.compileEachEntry = true;
    std::shared_ptr<Engine> engine = Engine::tryCreate(each);
    REQUIRE(engine);
    const std::shared_ptr<const Module> module = translatedData("stencil_kernels.hpp");
    const Function* fn = module->find("Conv");
    REQUIRE(fn);
    const LaunchPlan plan = LaunchPlanner::for3D(70, 100, 230);
    const std::vector<PlanChoice> candidates = planCandidates(*fn, plan, engine->device());
    REQUIRE(candidates.size() > 1);
    const std::vector<ArgSpec> args = {array(Scalar::F32, 70 * 100 * 230), array(Scalar::F32, 27), scalar(70),
                                       scalar(100), scalar(230)};
    LaunchPlan perThread = plan;
    perThread.perThread = true;
    const std::vector<std::byte> want = launch(*engine, module, *fn, args, perThread, 1);
    std::optional<EntryLaunch> ran;
    for (int repeat = 0; repeat < 2; ++repeat) {
      REQUIRE(firstDifference(launch(*engine, module, *fn, args, plan, 1, {}, &ran), want, Scalar::F32) == -1);
      REQUIRE(ran);
      REQUIRE(ran->choice);
      CHECK(ran->choice->entry == candidates[0].entry);
    }
    CHECK(ran->measured);
  }
  if (before) ::setenv("CULIFT_TUNE", saved.c_str(), 1);
  else ::unsetenv("CULIFT_TUNE");
}
