// Interpreter ns per element vs the natively compiled function, single thread, on RowSum,
// GramDot and CorrelationCell over a rows × cols matrix (256 × 256 by default).
//   culift_interp_bench [rows] [cols] [path/to/examples/pearson/pearson_metrics.hpp]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "culift/interpreter.hpp"
#include "pearson_ast.hpp"
#if CULIFT_BENCH_TRANSLATE
#include "../../examples/pearson/pearson_metrics.hpp"
#include "culift/translate.hpp"
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

void report(const char* name, double interp, double native) {
  std::printf("%-16s interpreter %9.2f ns/element   native %8.2f ns/element   ratio %6.2fx\n", name, interp, native,
              interp / native);
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
    double tn = nsPer(rows, [&] {
      for (int i = 0; i < rows; ++i) out[i] = nRowSum(x.data(), cols, i);
      gSink = out[0];
    });
    report("RowSum", ti, tn);
  }
  {
    const int n = std::min(rows, 128);
    interp::Arg args[] = {interp::ArrayRef::of(std::span<const float>(x)), interp::Value::of(cols),
                          interp::ArrayRef::of(std::span<float>(out))};
    double ti = nsPer(std::size_t(n) * n, [&] { program->launch(gramDot, interp::Extent{{n, n, 1}, 2}, args); });
    double tn = nsPer(std::size_t(n) * n, [&] {
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) out[i * n + j] = nGramDot(x.data(), cols, i, j);
      gSink = out[0];
    });
    report("GramDot", ti, tn);
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
    double tn = nsPer(std::size_t(rows) * rows, [&] {
      for (int i = 0; i < rows; ++i)
        for (int j = 0; j < rows; ++j)
          out[i * rows + j] = nCorr(dot.data(), sums.data(), sumsSq.data(), rows, cols, i, j);
      gSink = out[0];
    });
    report("CorrelationCell", ti, tn);
  }
  return 0;
}
