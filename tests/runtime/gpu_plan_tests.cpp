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
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "culift/translate.hpp"
#include "gpu_support.hpp"

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
      {"Shifted", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         const std::int64_t ld = std::max({nk, nj, std::int64_t{1}});
         return std::vector{array(S::F32, ni * ld), array(S::F64, nk * ld), scalar(asInt(ld)), scalar(asInt(nk))};
       }},
      {"Spread", LoopPlan::TiledContraction,
       [](auto ni, auto nj, auto nk) {
         return std::vector{array(S::I32, ni * nk), array(S::I32, nj * nk), scalar(asInt(nk))};
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
      {"RowGap", LoopPlan::RowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, ni * nk), array(S::F32, ni * nk), scalar(asInt(nk))};
       }},
      {"RowTotal", LoopPlan::ReassociatingRowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F32, ni * nk), scalar(asInt(nk))};
       },
       1.0},
      {"MatVecSum", LoopPlan::ReassociatingRowReduction,
       [](auto ni, auto, auto nk) {
         return std::vector{array(S::F64, ni * nk), array(S::F64, nk), scalar(asInt(nk))};
       },
       1.0},
      {"MomentGap", LoopPlan::ReassociatingRowReduction,
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

// Deterministic values in [-1, 1] (integers in [-1000, 1000]), different for every array.
std::vector<std::byte> values(Scalar element, std::size_t count, unsigned seed) {
  std::vector<std::byte> bytes(count * byteSize(element));
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> integer(-1000, 1000);
  for (std::size_t k = 0; k < count; ++k) {
    std::byte* at = bytes.data() + k * byteSize(element);
    if (element == Scalar::F32) {
      const float v = static_cast<float>(real(rng));
      std::memcpy(at, &v, sizeof v);
    } else if (element == Scalar::F64) {
      const double v = real(rng);
      std::memcpy(at, &v, sizeof v);
    } else {
      const std::int32_t v = integer(rng);
      std::memcpy(at, &v, sizeof v);
    }
  }
  return bytes;
}

// Launches `fn` over `plan` on `engine` with the spec's arrays at `offset` elements into their
// buffers; returns the bytes of every array it writes (out, or the written arrays).
std::vector<std::byte> launch(Engine& engine, const std::shared_ptr<const Module>& module, const Function& fn,
                              const std::vector<ArgSpec>& spec, const LaunchPlan& plan, std::size_t offset) {
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<LaunchArg> args;
  std::vector<std::pair<Buffer*, std::size_t>> written;
  unsigned seed = 7;
  std::size_t user = 0;
  for (const KernelParam& p : fn.signature.params) {
    if (p.role == ParamRole::Extent) continue;
    if (p.role == ParamRole::Out) {
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
    const std::vector<std::byte> host = values(a.element, a.count, seed++);
    if (!host.empty()) b->writeBytes(host.data(), host.size(), offset * byteSize(a.element));
    const bool out = p.role == ParamRole::OutputArray;
    args.push_back(
        LaunchArg::of(BufferRef{&engine, b->address() + offset * byteSize(a.element), a.element, a.count, !out}));
    if (out) written.emplace_back(b.get(), a.count);
  }
  engine.kernel(module, fn.name).launchArgs(engine, plan, args);
  engine.synchronize();
  std::vector<std::byte> result;
  for (auto& [buffer, count] : written) {
    std::vector<std::byte> bytes(buffer->bytes());
    buffer->readBytes(bytes.data(), bytes.size(), 0);
    result.insert(result.end(), bytes.begin(), bytes.end());
  }
  return result;
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

// The first element where two read-backs differ, or -1: bit for bit, or for floating values
// with `relative` > 0 within relative * max(1, |a|, |b|), or with `absolute` > 0 within it.
std::int64_t firstDifference(const std::vector<std::byte>& a, const std::vector<std::byte>& b, Scalar element,
                             double relative = 0, double absolute = 0) {
  const std::size_t width = byteSize(element);
  if (a.size() != b.size()) return 0;
  for (std::size_t k = 0; k < a.size(); k += width) {
    if (std::memcmp(a.data() + k, b.data() + k, width) == 0) continue;
    if ((relative > 0 || absolute > 0) && isFloating(element)) {
      const double x = floatAt(a, k, element), y = floatAt(b, k, element);
      if (relative > 0 && std::fabs(x - y) <= relative * std::max({1.0, std::fabs(x), std::fabs(y)})) continue;
      if (absolute > 0 && std::fabs(x - y) <= absolute) continue;
    }
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
// exact sum (n the longest chain of additions: nk + 1 as written, ceil(nk / 32) + 6 in the
// plan's order), one more rounding after the loop.
double reassociationBound(std::int64_t nk, double weight, Scalar element) {
  const double n = static_cast<double>(nk);
  return (gamma(n + 2, element) + gamma(std::ceil(n / 32) + 7, element)) * n * weight;
}

struct Extent {
  std::int64_t ni, nj, nk;
  std::size_t offset;
};

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
  const std::string header = rttest::sourceFile("tests/runtime/data/loop_plan_kernels.hpp");
  REQUIRE_FALSE(header.empty());
  TranslateOptions options;
  options.compilerArgs = {"-I" + rttest::sourceFile("include")};
  TranslateResult translated = translate(header, options);
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  const std::shared_ptr<const Module> module = translated.module;

  std::set<std::string> entriesRun, entriesDeclared;
  std::size_t comparedWithCpu = 0, launches = 0;
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
        }
      }
    }
  }
  WARN("loop-plan entries run: " << entriesRun.size() << " of " << entriesDeclared.size() << "; " << launches
                                 << " GPU launches, " << comparedWithCpu << " compared with the CPU backend");
  REQUIRE(entriesRun == entriesDeclared);
  REQUIRE(comparedWithCpu >= (smallOnly() ? 30u : 300u));
}

namespace {

// RowTotal's row in the order its reassociating plan documents: lane l of 32 sums the terms of
// iterations l, l + 32, ... (each term added to -0.0), lanes l and l + d add for d = 16 .. 1,
// and the sum before the loop is added last.
float documentedOrder(const float* row, std::int64_t n) {
  float partial[32];
  std::fill(std::begin(partial), std::end(partial), -0.0f);
  for (std::int64_t t = 0; t < n; ++t) partial[t % 32] = partial[t % 32] + (-0.0f + row[t]);
  for (int d = 16; d >= 1; d /= 2)
    for (int l = 0; l < d; ++l) partial[l] = partial[l] + partial[l + d];
  return 0.0f + partial[0];
}

}  // namespace

TEST_CASE("a reassociating kernel adds in its documented order on the CPU backend, as written per thread", "[cpu]") {
  auto cpu = Engine::createCpu();
  TranslateOptions options;
  options.compilerArgs = {"-I" + rttest::sourceFile("include")};
  TranslateResult translated = translate(rttest::sourceFile("tests/runtime/data/loop_plan_kernels.hpp"), options);
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  const Function* fn = translated.module->find("RowTotal");
  REQUIRE(fn);
  REQUIRE(fn->loopPlan == LoopPlan::ReassociatingRowReduction);
  std::size_t differFromWritten = 0;
  for (std::int64_t n : {0, 1, 31, 33, 100, 4097}) {
    const std::int64_t rows = 9;
    INFO("rows of " << n);
    const std::vector<std::byte> bytes = values(Scalar::F32, static_cast<std::size_t>(rows * n), 7);
    std::vector<float> x(static_cast<std::size_t>(rows * n));
    if (!x.empty()) std::memcpy(x.data(), bytes.data(), bytes.size());
    const std::vector<ArgSpec> args = {array(Scalar::F32, rows * n), scalar(asInt(n))};
    LaunchPlan plan = LaunchPlanner::for1D(rows, 256);
    const auto planned = launch(*cpu, translated.module, *fn, args, plan, 0);
    plan.perThread = true;
    const auto written = launch(*cpu, translated.module, *fn, args, plan, 0);
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
  // The orders are not the same one: at 100 and 4097 iterations some row must differ.
  CHECK(differFromWritten > 0);
}
