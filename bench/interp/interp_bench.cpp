// Interpreter and compiled CPU code (cpujit/) ns per element vs the natively compiled function,
// single thread, on RowSum, GramDot, CorrelationCell and PearsonClamp over a rows × cols matrix
// (256 × 256 by default) and the separating-axis test (SAT) over rows × cols pairs; then GramDot
// over rows × rows on every core, compiled, in wall time, against one native thread; then the
// same through the CPU backend's engine, by the JIT and by the host launchers built with this
// program (culift_add_kernels HOST_LAUNCHERS).
//   culift_interp_bench [rows] [cols] [path/to/examples/pearson/pearson_metrics.hpp]
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "culift/cpujit.hpp"
#include "culift/interpreter.hpp"
#include "pearson_ast.hpp"
#if CULIFT_BENCH_TRANSLATE
#include "../../examples/pearson/pearson_metrics.hpp"
#include "../../examples/sat/sat_overlap.hpp"
#include "culift/translate.hpp"
#endif
#if CULIFT_BENCH_HOST_LAUNCHERS
#include "culift/runtime/runtime.hpp"
#include "culift_kernels/pearson_metrics.hpp"
#endif

using namespace culift;

namespace {

volatile float gSink;

// CPU time of this thread: the machine may be shared, and wall time would count other work.
double threadSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

template <typename Fn> double nsPer(std::size_t elements, Fn&& run) {
  run();  // warm up
  double best = 1e300;
  for (int rep = 0; rep < 5; ++rep) {
    const double t0 = threadSeconds();
    run();
    const double ns = (threadSeconds() - t0) * 1e9 / static_cast<double>(elements);
    if (ns < best) best = ns;
  }
  return best;
}

void report(const char* name, double interp, double compiled, double native) {
  std::printf(
      "%-16s interpreter %9.2f   compiled %8.2f   native %8.2f ns/element   interpreter/native %6.2fx   "
      "compiled/native %5.2fx\n",
      name, interp, compiled, native, interp / native, compiled / native);
}

// A compiled launch's arguments: per signature parameter its data or the address of its value.
cpujit::LaunchArgs jitArgs(std::vector<const void*> params, std::vector<std::uint64_t> lengths, std::int64_t n0,
                           std::int64_t n1 = 1) {
  cpujit::LaunchArgs a;
  a.params = std::move(params);
  a.lengths = std::move(lengths);
  a.extent[0] = n0;
  a.extent[1] = n1;
  return a;
}

double wallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Best of 5 wall times of a compiled launch split over `threads` contiguous chunks.
double allCoresMs(const cpujit::Kernel& k, const cpujit::LaunchArgs& a, std::uint64_t total, unsigned threads) {
  double best = 1e300;
  for (int rep = 0; rep < 6; ++rep) {
    const double t0 = wallSeconds();
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] { k.run(a, total * t / threads, total * (t + 1) / threads); });
    for (std::thread& t : pool) t.join();
    if (rep > 0) best = std::min(best, (wallSeconds() - t0) * 1e3);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int rows = argc > 1 ? std::atoi(argv[1]) : 256;
  const int cols = argc > 2 ? std::atoi(argv[2]) : 256;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(static_cast<std::size_t>(rows) * cols);
  for (float& v : x) v = dist(rng);

  // The tutorial header translated by the front end when it is built in; else the same
  // functions as hand-built trees. Native references are the matching C++ functions.
  std::shared_ptr<const Module> module;
  auto nRowSum = &testing::native::RowSum;
  auto nRowSumSq = &testing::native::RowSumSq;
  auto nGramDot = &testing::native::GramDot;
  auto nCorr = &testing::native::CorrelationCell;
  const char* source = "hand-built trees of the tutorial functions";
#if CULIFT_BENCH_TRANSLATE
  {
    TranslateOptions to;
    to.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
    const std::string header = argc > 3 ? argv[3] : CULIFT_SOURCE_DIR "/examples/pearson/pearson_metrics.hpp";
    if (argc > 3) to.compilerArgs = {"-I" + header.substr(0, header.rfind("/examples/")) + "/include"};
    TranslateResult tr = translate(header, to);
    if (tr.ok()) {
      module = tr.module;
      nRowSum = &::RowSum;
      nRowSumSq = &::RowSumSq;
      nGramDot = &::GramDot;
      nCorr = &::CorrelationCell;
      source = "examples/pearson/pearson_metrics.hpp, translated";
    } else {
      std::fprintf(stderr, "%s", tr.formatDiagnostics().c_str());
    }
  }
#endif
  if (!module) module = testing::pearsonModule();
  interp::Options opts;
  opts.threads = 1;
  auto program = interp::Program::compile(module, opts);
  const Function& rowSum = *module->find("RowSum");
  const Function& gramDot = *module->find("GramDot");
  const Function& corr = *module->find("CorrelationCell");
  const auto jit = cpujit::Program::compile(module);
  std::printf("compiled for %s in %.1f ms\n", cpujit::hostDescription().c_str(), jit->compileMilliseconds());
  const cpujit::Kernel& jRowSum = *jit->kernel(rowSum);
  const cpujit::Kernel& jGramDot = *jit->kernel(gramDot);
  const cpujit::Kernel& jCorr = *jit->kernel(corr);
  const std::uint64_t nx = x.size();

  std::vector<float> sums(rows), sumsSq(rows), dot(static_cast<std::size_t>(rows) * rows), out(dot.size());
  for (int i = 0; i < rows; ++i) {
    sums[i] = nRowSum(x.data(), cols, i);
    sumsSq[i] = nRowSumSq(x.data(), cols, i);
  }
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < rows; ++j) dot[i * rows + j] = nGramDot(x.data(), cols, i, j);

  std::printf("culift interpreter benchmark: %d x %d matrix, single thread\n", rows, cols);
  std::printf("functions: %s\n", source);
  std::printf("(one element = one call of the function = one GPU thread; thread CPU time, best of 5)\n");

  {
    interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(x)), interp::Value::of(cols),
                          interp::ArrayRef::of(std::span<float>(out.data(), rows))};
    double ti = nsPer(rows, [&] { program->launch(rowSum, interp::Extent{{rows, 1, 1}, 1}, args); });
    std::int64_t n = rows;
    const auto a = jitArgs({x.data(), &cols, out.data(), &n}, {nx, 0, out.size(), 0}, rows);
    double tc = nsPer(rows, [&] { jRowSum.run(a, 0, rows); });
    double tn = nsPer(rows, [&] {
      for (int i = 0; i < rows; ++i) out[i] = nRowSum(x.data(), cols, i);
      gSink = out[0];
    });
    report("RowSum", ti, tc, tn);
  }
  {
    const int n = std::min(rows, 128);
    interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(x)), interp::Value::of(cols),
                          interp::ArrayRef::of(std::span<float>(out))};
    double ti = nsPer(std::size_t(n) * n, [&] { program->launch(gramDot, interp::Extent{{n, n, 1}, 2}, args); });
    std::int64_t ni = n;
    const auto a = jitArgs({x.data(), &cols, out.data(), &ni, &ni}, {nx, 0, out.size(), 0, 0}, n, n);
    double tc = nsPer(std::size_t(n) * n, [&] { jGramDot.run(a, 0, std::uint64_t(n) * n); });
    double tn = nsPer(std::size_t(n) * n, [&] {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) out[i * n + j] = nGramDot(x.data(), cols, i, j);
      gSink = out[0];
    });
    report("GramDot", ti, tc, tn);
  }
  {
    interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(dot)),
                          interp::ArrayRef::of(std::span<const float>(sums)),
                          interp::ArrayRef::of(std::span<const float>(sumsSq)),
                          interp::Value::of(rows),
                          interp::Value::of(cols),
                          interp::ArrayRef::of(std::span<float>(out))};
    double ti = nsPer(std::size_t(rows) * rows, [&] {
      program->launch(corr, interp::Extent{{rows, rows, 1}, 2}, args);
    });
    std::int64_t n = rows;
    const auto a = jitArgs({dot.data(), sums.data(), sumsSq.data(), &rows, &cols, out.data(), &n, &n},
                           {dot.size(), sums.size(), sumsSq.size(), 0, 0, out.size(), 0, 0}, rows, rows);
    double tc = nsPer(std::size_t(rows) * rows, [&] { jCorr.run(a, 0, std::uint64_t(rows) * rows); });
    double tn = nsPer(std::size_t(rows) * rows, [&] {
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < rows; ++j)
          out[i * rows + j] = nCorr(dot.data(), sums.data(), sumsSq.data(), rows, cols, i, j);
      gSink = out[0];
    });
    report("CorrelationCell", ti, tc, tn);
  }
  if (const Function* clamp = module->find("PearsonClamp"); clamp && jit->kernel(*clamp)) {
    // Element-wise: cov and denom read per element.
    const std::size_t n = dot.size();
    std::vector<float> denom(n);
    for (std::size_t e = 0; e < n; ++e) denom[e] = 0.5f + std::abs(dot[(e * 7) % n]);
    interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(dot)),
                          interp::ArrayRef::of(std::span<const float>(denom)),
                          interp::ArrayRef::of(std::span<float>(out))};
    const auto total = static_cast<std::int64_t>(n);
    double ti = nsPer(n, [&] { program->launch(*clamp, interp::Extent{{total, 1, 1}, 1}, args); });
    const auto a = jitArgs({dot.data(), denom.data(), out.data(), &total}, {n, n, n, 0}, total);
    double tc = nsPer(n, [&] { jit->kernel(*clamp)->run(a, 0, n); });
#if CULIFT_BENCH_TRANSLATE
    double tn = nsPer(n, [&] {
      for (std::size_t e = 0; e < n; ++e) out[e] = ::PearsonClamp(dot[e], denom[e]);
      gSink = out[0];
    });
    report("PearsonClamp", ti, tc, tn);
#else
    report("PearsonClamp", ti, tc, tc);
#endif
  }
#if CULIFT_BENCH_TRANSLATE
  {
    // The separating-axis test over rows × cols rectangle/triangle pairs.
    TranslateOptions to;
    to.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
    TranslateResult tr = translate(CULIFT_SOURCE_DIR "/examples/sat/sat_overlap.hpp", to);
    const Function* sat = tr.ok() ? tr.module->find("RectTriangleOverlap") : nullptr;
    const auto satJit = sat ? cpujit::Program::compile(tr.module) : nullptr;
    if (sat && satJit->kernel(*sat)) {
      const std::size_t n = static_cast<std::size_t>(rows) * cols;
      std::vector<float> lo(2 * n), hi(2 * n), tri(6 * n), hit(n);
      for (std::size_t e = 0; e < n; ++e) {
        for (int c = 0; c < 2; ++c) {
          lo[2 * e + c] = dist(rng);
          hi[2 * e + c] = lo[2 * e + c] + 0.5f * (1.0f + dist(rng));
        }
        for (int c = 0; c < 6; ++c) tri[6 * e + c] = 1.5f * dist(rng);
      }
      auto satProgram = interp::Program::compile(tr.module, opts);
      interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(lo)),
                            interp::ArrayRef::of(std::span<const float>(hi)),
                            interp::ArrayRef::of(std::span<const float>(tri)),
                            interp::ArrayRef::of(std::span<float>(hit))};
      const auto total = static_cast<std::int64_t>(n);
      double ti = nsPer(n, [&] { satProgram->launch(*sat, interp::Extent{{total, 1, 1}, 1}, args); });
      const auto a = jitArgs({lo.data(), hi.data(), tri.data(), hit.data(), &total}, {2 * n, 2 * n, 6 * n, n, 0},
                             total);
      double tc = nsPer(n, [&] { satJit->kernel(*sat)->run(a, 0, n); });
      double tn = nsPer(n, [&] {
        for (std::size_t e = 0; e < n; ++e)
          hit[e] = ::RectTriangleOverlap(lo.data(), hi.data(), tri.data(), static_cast<int>(e));
        gSink = hit[0];
      });
      report("SAT", ti, tc, tn);
    }
  }
#endif
  {
    // GramDot over rows × rows: every core, compiled, against one native thread.
    std::vector<float> gram(static_cast<std::size_t>(rows) * rows);
    std::int64_t n = rows;
    const auto a = jitArgs({x.data(), &cols, gram.data(), &n, &n}, {nx, 0, gram.size(), 0, 0}, rows, rows);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    const double one = allCoresMs(jGramDot, a, gram.size(), 1);
    const double all = allCoresMs(jGramDot, a, gram.size(), threads);
    double native = 1e300;
    for (int rep = 0; rep < 6; ++rep) {
      const double t0 = wallSeconds();
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < rows; ++j) gram[i * rows + j] = nGramDot(x.data(), cols, i, j);
      gSink = gram[1];
      if (rep > 0) native = std::min(native, (wallSeconds() - t0) * 1e3);
    }
    std::printf(
        "GramDot %dx%d    compiled, 1 thread %.1f ms   compiled, %u threads %.1f ms   native, 1 thread %.1f ms\n", rows,
        rows, one, threads, all, native);
#if CULIFT_BENCH_HOST_LAUNCHERS
    // The CPU backend's engine over every core: the JIT's code and the host launchers, in wall
    // time per launch (buffers made once), the same bits.
    auto engineMs = [&](bool launchers, std::vector<float>& result) {
      rt::EngineOptions o;
      o.cpuCode = rt::CpuCode::Unchecked;
      o.hostLaunchers = launchers;
      auto engine = rt::Engine::createCpu(o);
      auto m = culift_kernels::pearson_metrics();
      rt::DeviceBuffer<float> dx(*engine, x), dg(*engine, gram.size());
      const rt::Kernel k = engine->kernel(m, "GramDot");
      double best = 1e300;
      for (int rep = 0; rep < 6; ++rep) {
        const double t0 = wallSeconds();
        k.launch(*engine, rt::LaunchPlanner::for2D(rows, rows), dx, cols, dg);
        engine->synchronize();
        if (rep > 0) best = std::min(best, (wallSeconds() - t0) * 1e3);
      }
      result = dg.read();
      return best;
    };
    std::vector<float> viaJit, viaLaunchers;
    const double jitMs = engineMs(false, viaJit), launcherMs = engineMs(true, viaLaunchers);
    std::printf("GramDot %dx%d    engine, JIT code %.1f ms   engine, host launchers %.1f ms (%u threads)   %s\n", rows,
                rows, jitMs, launcherMs, threads, viaJit == viaLaunchers ? "same bits" : "DIFFERENT BITS");
#endif
  }
  return 0;
}
