// A launch split over a device group, against one engine, with the arrays kept on the engines
// (rt::GroupArray; docs/scaling-out.md): every GPU of the host, and two engines on GPU 0 (what a
// host of one GPU can measure: the group's own cost). Rows:
//
// - GemmCell (exact tiled contraction) and GramDot (symmetric: one engine takes its mirrored
//   triangle, a part of the group its rows' plain tiles) at --size: median ms of the whole launch
//   on one engine, of the group's launch (parts launched, then each waited for; `out` left
//   sharded), and their ratio;
// - the Pearson pipeline (--pipeline-rows x --pipeline-cols), its arrays kept on the engines;
// - the host's cost of a group launch: a launch of two outputs on one engine and on the group
//   (launch and wait), the difference per engine.
//
//   culift_group_bench [--size N] [--samples S]     (on the GPU machine: CULIFT_SOURCE_ROOT set)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "culift/runtime/device_group.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/CommandLine.h"

namespace cl = llvm::cl;
using namespace culift;
using Clock = std::chrono::steady_clock;

namespace {

cl::opt<int> Size("size", cl::desc("GEMM and GramDot size (default 8192)"), cl::init(8192));
cl::opt<int> PipelineRows("pipeline-rows", cl::desc("Pearson pipeline rows (default 16384)"), cl::init(16384));
cl::opt<int> PipelineCols("pipeline-cols", cl::desc("Pearson pipeline columns per row (default 1024)"), cl::init(1024));
cl::opt<int> CpuEngines(
    "cpu-engines", cl::desc("a check without a GPU: a group of N CPU engines instead of the GPUs (use small sizes)"),
    cl::init(0));
cl::opt<int> Samples("samples", cl::desc("timed launches per row (default 7)"), cl::init(7));
cl::opt<std::string> SourceRoot("source-root", cl::desc("the repository root (default: $CULIFT_SOURCE_ROOT, .)"));

template <typename F> double medianMs(F&& f) {
  f();  // compiled and warm
  std::vector<double> ms;
  for (int s = 0; s < Samples; ++s) {
    const auto t0 = Clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::vector<float> values(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  unsigned x = seed * 2654435761u + 1;
  for (float& e : v) {
    x = x * 1664525u + 1013904223u;
    e = static_cast<float>(x >> 8) / 16777216.0f - 0.5f;
  }
  return v;
}

std::shared_ptr<const Module> translated(const std::string& header) {
  TranslateOptions options;
  options.compilerArgs = {"-I" + bench::sourceFile(SourceRoot, "include")};
  TranslateResult r = translate(bench::sourceFile(SourceRoot, header), options);
  if (!r.ok()) {
    std::fprintf(stderr, "%s", r.formatDiagnostics().c_str());
    std::exit(2);
  }
  return r.module;
}

// A group of the group's first engine alone.
rt::DeviceGroup firstEngineOf(const rt::DeviceGroup& group) {
  return rt::DeviceGroup({std::shared_ptr<rt::Engine>(std::shared_ptr<rt::Engine>{}, &group.engine(0))});
}

// One row: `timeOn(g)` (the median ms of a launch on group g and its result) on the group's first
// engine alone and on the group.
template <typename TimeOn> void compare(const std::string& what, const rt::DeviceGroup& group, TimeOn&& timeOn) {
  const auto [oneMs, oneOut] = timeOn(firstEngineOf(group));
  const auto [groupMs, groupOut] = timeOn(group);
  std::printf("| %-28s | %2zu | %10.3f | %10.3f | %6.2fx | %s |\n", what.c_str(), group.size(), oneMs, groupMs,
              oneMs / groupMs, oneOut == groupOut ? "same bytes" : "DIFFERENT");
}

// `kernel` over `plan`, its inputs and `out` kept on the engines.
void row(const std::string& what, const rt::DeviceGroup& group, const std::shared_ptr<const Module>& module,
         const char* kernel, const rt::LaunchPlan& plan, const std::vector<std::vector<float>>& inputs,
         const std::vector<rt::ScalarValue>& scalars) {
  compare(what, group, [&](const rt::DeviceGroup& g) {
    std::vector<std::unique_ptr<rt::GroupArray>> arrays;
    std::vector<rt::GroupArrayArg> args;
    for (const auto& in : inputs)
      args.push_back(rt::GroupArrayArg::of(*arrays.emplace_back(std::make_unique<rt::GroupArray>(g, in))));
    for (const rt::ScalarValue& s : scalars) args.push_back({nullptr, s});
    rt::GroupArray& out = *arrays.emplace_back(
        std::make_unique<rt::GroupArray>(g, Scalar::F32, static_cast<std::size_t>(plan.elements())));
    args.push_back(rt::GroupArrayArg::of(out));
    const double ms = medianMs([&] { g.launch(module, kernel, plan, args); });
    return std::pair{ms, out.read<float>()};
  });
}

void measure(const char* name, const rt::DeviceGroup& group, const std::shared_ptr<const Module>& blas,
             const std::shared_ptr<const Module>& pearson) {
  std::printf("\n== %s: %zu engines (", name, group.size());
  for (std::size_t d = 0; d < group.size(); ++d)
    std::printf("%s%s", d ? ", " : "", group.engine(d).device().name.c_str());
  std::printf(")\n| %-28s | %2s | %10s | %10s | %7s | %s |\n", "launch", "n", "one ms", "group ms", "speed-up",
              "check");
  const int n = Size;
  const auto un = static_cast<std::size_t>(n);
  row("GemmCell " + std::to_string(n), group, blas, "GemmCell", rt::LaunchPlanner::for2D(n, n),
      {values(un * un, 1), values(un * un, 2), values(un * un, 3)},
      {rt::ScalarValue::of(1.5f), rt::ScalarValue::of(0.5f), rt::ScalarValue::of(n), rt::ScalarValue::of(n)});
  row("GramDot " + std::to_string(n), group, pearson, "GramDot", rt::LaunchPlanner::for2D(n, n), {values(un * un, 4)},
      {rt::ScalarValue::of(n)});
  // The Pearson pipeline (RowSum, RowSumSq, GramDot, CorrelationCell), its arrays kept on the
  // engines: the row statistics and the Gram matrix stay sharded; CorrelationCell's rows read
  // their own cells of the Gram matrix (sliced: the mirrored cells copied from the engines that
  // hold them) and every row's statistics (replicated).
  {
    const int rows = PipelineRows, cols = PipelineCols;
    const std::vector<float> x = values(static_cast<std::size_t>(rows) * cols, 6);
    compare("Pearson pipeline " + std::to_string(rows) + " x " + std::to_string(cols), group,
            [&](const rt::DeviceGroup& g) {
              rt::GroupArray rx(g, x), sums(g, Scalar::F32, rows), sumsq(g, Scalar::F32, rows),
                  dot(g, Scalar::F32, static_cast<std::size_t>(rows) * rows),
                  corr(g, Scalar::F32, static_cast<std::size_t>(rows) * rows);
              using A = rt::GroupArrayArg;
              auto run = [&] {
                g.launch(pearson, "RowSum", rt::LaunchPlanner::for1D(rows),
                         std::vector{A::of(rx), A::of(cols), A::of(sums)});
                g.launch(pearson, "RowSumSq", rt::LaunchPlanner::for1D(rows),
                         std::vector{A::of(rx), A::of(cols), A::of(sumsq)});
                g.launch(pearson, "GramDot", rt::LaunchPlanner::for2D(rows, rows),
                         std::vector{A::of(rx), A::of(cols), A::of(dot)});
                g.launch(pearson, "CorrelationCell", rt::LaunchPlanner::for2D(rows, rows),
                         std::vector{A::of(dot), A::of(sums), A::of(sumsq), A::of(rows), A::of(cols), A::of(corr)});
              };
              const double ms = medianMs(run);
              return std::pair{ms, corr.read<float>()};
            });
  }
  // The host's cost: one output.
  auto tinyOn = [&](const rt::DeviceGroup& g) {
    rt::GroupArray x(g, values(8, 5)), out(g, Scalar::F32, 2);
    std::vector args{rt::GroupArrayArg::of(x), rt::GroupArrayArg::of(4), rt::GroupArrayArg::of(out)};
    return medianMs([&] { g.launch(pearson, "RowSum", rt::LaunchPlanner::for1D(2), args); });
  };
  const double tinyOne = tinyOn(firstEngineOf(group)), tinyGroup = tinyOn(group);
  std::printf("host cost of a launch of 2 outputs: one engine %.1f us, the group %.1f us: %.1f us more per engine\n",
              tinyOne * 1e3, tinyGroup * 1e3, (tinyGroup - tinyOne) * 1e3 / static_cast<double>(group.size()));
}

}  // namespace

int main(int argc, char** argv) {
  cl::ParseCommandLineOptions(argc, argv, "culift device-group benchmark\n");
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  try {
    const auto blas = translated("bench/gpu/blas_cells.hpp");
    const auto pearson = translated("examples/pearson/pearson_metrics.hpp");
    rt::EngineOptions options;
    options.math = rt::MathMode::Strict;  // the group's parts and one engine's launch: the same bits
    if (CpuEngines > 0) {
      std::vector<std::shared_ptr<rt::Engine>> engines;
      for (int e = 0; e < CpuEngines; ++e) engines.push_back(rt::Engine::createCpu(options));
      measure("CPU engines", rt::DeviceGroup(std::move(engines)), blas, pearson);
      return 0;
    }
    const rt::DeviceGroup all = rt::DeviceGroup::gpus(options);
    measure("every GPU of the host", all, blas, pearson);
    measure("two engines on GPU 0", rt::DeviceGroup::gpus(options, {0, 0}), blas, pearson);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "group-bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
