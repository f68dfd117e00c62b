// The Pearson tutorial: six plain C++ functions lifted to CUDA kernels, launched on a
// 1024 x 1024 matrix (GPU, or the CPU backend where there is none), every stage cross-checked.
//
//   Step 1  translate pearson_metrics.hpp; per function: index mode, kernel, entries and the
//           interpreter-vs-native self-check; one kernel's pseudocode and CUDA source, and the
//           whole CUDA file written to --cuda-out
//   Step 2  register the translated module with the runtime
//   Step 3  create the engine and launch: row statistics (1-D), Gram / correlation / distance
//           (2-D), PearsonClamp element-wise over all cells
//   Step 4  compare with double-precision CPU references (two-pass algorithms)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "culift/codegen.hpp"
#include "culift/crosscheck.hpp"
#include "culift/interpreter.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/sample_args.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/CommandLine.h"
#include "pearson_metrics.hpp"

namespace cl = llvm::cl;
using Clock = std::chrono::steady_clock;

namespace {

// The tutorial's own options; --help hides the hundreds LLVM registers (and a typo is matched
// against these alone).
cl::OptionCategory Options("pearson options");
cl::opt<int> Size("size", cl::desc("rows and columns of the matrix (default 1024)"), cl::init(1024), cl::cat(Options));
cl::opt<unsigned> Seed("seed", cl::desc("random seed (default 42)"), cl::init(42), cl::cat(Options));
cl::opt<int> DeviceOrdinal("device", cl::desc("GPU ordinal (default 0)"), cl::init(0), cl::cat(Options));
cl::opt<bool> ForceCpu("cpu", cl::desc("run on the CPU backend even where a GPU exists"), cl::cat(Options));
cl::opt<bool> Strict("strict", cl::desc("strict math: no FMA contraction (--fmad=false)"), cl::cat(Options));
cl::opt<bool> Brief("brief", cl::desc("do not print pseudocode and CUDA source"), cl::cat(Options));
cl::opt<std::string> ShowCuda("show-cuda",
                              cl::desc("the function whose pseudocode and CUDA step 1 prints (default "
                                       "CorrelationCell; 'all': every function's, every entry)"),
                              cl::value_desc("NAME"), cl::init("CorrelationCell"), cl::cat(Options));
cl::opt<std::string> CudaOut("cuda-out", cl::desc("where step 1 writes the whole CUDA source"), cl::value_desc("FILE"),
                             cl::init(CULIFT_PEARSON_CUDA_OUT), cl::cat(Options));
cl::opt<std::string> Header("header", cl::desc("the header to translate"), cl::init(CULIFT_PEARSON_HEADER),
                            cl::cat(Options));

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

void title(const char* text) {
  std::printf("\n==========================================================================\n");
  std::printf("  %s\n", text);
  std::printf("==========================================================================\n");
}

void indented(const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::printf("    %.*s\n", static_cast<int>(end - start), text.data() + start);
    start = end + 1;
  }
}

const char* verdict(bool ok) { return ok ? "OK" : "FAIL"; }

// Runs `body(row)` for every row, over all cores.
template <typename F> void parallelRows(int rows, F body) {
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < workers; ++w)
    pool.emplace_back([&, w] {
      for (int r = static_cast<int>(w); r < rows; r += static_cast<int>(workers)) body(r);
    });
  for (auto& t : pool) t.join();
}

// Double-precision references with the two-pass algorithm: centre each row, then correlate.
void cpuReferences(const std::vector<float>& x, int n, std::vector<double>& corr, std::vector<double>& dist) {
  std::vector<double> centred(static_cast<size_t>(n) * n), norm(n);
  for (int i = 0; i < n; ++i) {
    double mean = 0;
    for (int k = 0; k < n; ++k) mean += x[static_cast<size_t>(i) * n + k];
    mean /= n;
    double ss = 0;
    for (int k = 0; k < n; ++k) {
      double c = x[static_cast<size_t>(i) * n + k] - mean;
      centred[static_cast<size_t>(i) * n + k] = c;
      ss += c * c;
    }
    norm[i] = std::sqrt(ss);
  }
  corr.assign(static_cast<size_t>(n) * n, 0);
  dist.assign(static_cast<size_t>(n) * n, 0);
  parallelRows(n, [&](int i) {
    const double* ci = &centred[static_cast<size_t>(i) * n];
    const float* xi = &x[static_cast<size_t>(i) * n];
    for (int j = 0; j < n; ++j) {
      const double* cj = &centred[static_cast<size_t>(j) * n];
      const float* xj = &x[static_cast<size_t>(j) * n];
      double dot = 0, d2 = 0;
      for (int k = 0; k < n; ++k) {
        dot += ci[k] * cj[k];
        double d = static_cast<double>(xi[k]) - xj[k];
        d2 += d * d;
      }
      const double denom = norm[i] * norm[j];
      corr[static_cast<size_t>(i) * n + j] = i == j ? 1.0 : denom > 0 ? dot / denom : 0.0;
      dist[static_cast<size_t>(i) * n + j] = std::sqrt(d2);
    }
  });
}

template <typename T> double maxAbsError(const std::vector<float>& got, const std::vector<T>& want) {
  double worst = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    const double e = std::fabs(static_cast<double>(got[k]) - static_cast<double>(want[k]));
    if (!(e <= worst)) worst = e;  // NaN counts as the worst error
  }
  return worst;
}

void preview(const char* what, const std::vector<float>& m, int n) {
  const int p = std::min(n, 6);
  std::printf("\n  %s (top-left %d x %d):\n", what, p, p);
  for (int i = 0; i < p; ++i) {
    std::printf("   ");
    for (int j = 0; j < p; ++j) std::printf(" %9.4f", m[static_cast<size_t>(i) * n + j]);
    std::printf("\n");
  }
}

// The kernel's entries: the two per-thread ones and those of its loop plan.
std::vector<std::string> entriesOf(const culift::Function& fn) {
  if (!fn.isKernel()) return {};
  std::vector<std::string> entries = {fn.kernelName, fn.wideKernelName};
  for (const culift::PlanEntry& e : fn.planEntries) entries.push_back(e.kernelName);
  return entries;
}

std::size_t lineCount(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

// Calls the natively compiled function for a self-check.
culift::CrossCheckResult selfCheck(const culift::interp::Program& program, const culift::Function& fn) {
  const culift::SampleArgs args = culift::sampleArgs(fn, Seed);
  if (fn.name == "RowSum") return culift::crossCheck(program, fn, &RowSum, args);
  if (fn.name == "RowSumSq") return culift::crossCheck(program, fn, &RowSumSq, args);
  if (fn.name == "GramDot") return culift::crossCheck(program, fn, &GramDot, args);
  if (fn.name == "CorrelationCell") return culift::crossCheck(program, fn, &CorrelationCell, args);
  if (fn.name == "DistanceCell") return culift::crossCheck(program, fn, &DistanceCell, args);
  return culift::crossCheck(program, fn, &PearsonClamp, args);
}

}  // namespace

int main(int argc, char** argv) {
  cl::HideUnrelatedOptions(Options);
  cl::ParseCommandLineOptions(argc, argv,
                              "culift Pearson tutorial: correlation and distance matrices from plain C++\n");
  const int n = Size;
  if (n < 2) {
    std::fprintf(stderr, "pearson: --size must be at least 2\n");
    return 2;
  }
  bool allOk = true;

  // ---- Step 1 ------------------------------------------------------------------------------
  title("Step 1: translate the C++ functions to CUDA");
  const auto t0 = Clock::now();
  culift::TranslateResult translated = culift::translate(Header);
  const double translateMs = msSince(t0);
  if (!translated.ok()) {
    std::fputs(translated.formatDiagnostics().c_str(), stderr);
    return 1;
  }
  std::shared_ptr<const culift::Module> module = translated.module;
  std::printf("  %s: %zu functions translated in %.1f ms\n", Header.c_str(), module->functions.size(), translateMs);
  auto program = culift::interp::Program::compile(module);

  const char* const names[] = {"RowSum", "RowSumSq", "GramDot", "CorrelationCell", "DistanceCell", "PearsonClamp"};
  std::size_t kernels = 0, entries = 0, planEntries = 0;
  for (const culift::Function* fn : module->kernels()) {
    ++kernels;
    entries += entriesOf(*fn).size();
    planEntries += fn->planEntries.size();
  }
  std::printf("  %zu kernels, %zu entries: two per kernel (32-bit and 64-bit indices) and %zu of the loop plans\n",
              kernels, entries, planEntries);
  bool written = false;
  {
    std::ofstream file(CudaOut, std::ios::binary);
    file << module->cudaSource;
    file.close();
    written = static_cast<bool>(file);
    if (written)
      std::printf("  the whole CUDA source, %zu lines: %s\n", lineCount(module->cudaSource), CudaOut.c_str());
    else
      std::printf("  could not write the CUDA source to %s (--cuda-out FILE picks another place)\n", CudaOut.c_str());
  }
  for (const char* name : names) {
    const culift::Function* fn = module->find(name);
    if (!fn) {
      std::printf("  %s: not found in the translated module  FAIL\n", name);
      allOk = false;
      continue;
    }
    std::printf("\n  ---- %s ----\n", name);
    std::printf("  index mode      : %s\n", std::string(culift::name(fn->mode)).c_str());
    std::printf("  device function : %s\n", fn->deviceName.c_str());
    std::printf("  kernel          : %s%s\n", fn->kernelName.c_str(), fn->signature.toString().c_str());
    std::string list;
    for (const std::string& entry : entriesOf(*fn)) list += (list.empty() ? "" : ", ") + entry;
    std::printf("  entries         : %s (loop plan: %s)\n", list.c_str(),
                std::string(culift::name(fn->loopPlan)).c_str());
    if (!Brief && (ShowCuda == "all" || ShowCuda == name)) {
      const std::string cuda = culift::emitCudaFunction(*module, *fn);
      std::printf("\n  pseudocode:\n");
      indented(culift::writePseudocode(*module, *fn));
      std::printf("\n  CUDA source (%zu lines%s%s):\n", lineCount(cuda), written ? "; every kernel's is in " : "",
                  written ? CudaOut.c_str() : "");
      indented(cuda);
    }
    const culift::CrossCheckResult check = selfCheck(*program, *fn);
    std::printf("  self-check (interpreter vs native): %s  %s\n", check.summary().c_str(), verdict(check.equal));
    allOk = allOk && check.equal;
  }

  if (!Brief && ShowCuda != "all" &&
      std::find(std::begin(names), std::end(names), ShowCuda.getValue()) == std::end(names))
    std::printf("\n  --show-cuda %s: not one of the tutorial's functions (nor 'all')\n", ShowCuda.c_str());

  // ---- Step 2 ------------------------------------------------------------------------------
  title("Step 2: register the kernels");
  culift::rt::registerModule(module);
  for (const culift::Function* fn : module->kernels())
    std::printf("  registered %s [%s] <- %s\n", fn->kernelName.c_str(), std::string(culift::name(fn->mode)).c_str(),
                fn->name.c_str());

  // ---- Step 3 ------------------------------------------------------------------------------
  title("Step 3: correlation and distance matrices");
  culift::rt::EngineOptions options;
  options.deviceOrdinal = DeviceOrdinal;
  options.math = Strict ? culift::rt::MathMode::Strict : culift::rt::MathMode::Default;
  std::shared_ptr<culift::rt::Engine> engine;
  const auto tEngine = Clock::now();
  if (ForceCpu) {
    engine = culift::rt::Engine::createCpu(options);
    std::printf("  CPU backend requested (--cpu).\n");
  } else {
    std::string whyNot;
    engine = culift::rt::Engine::createGpuOrCpu(options, &whyNot);
    if (engine->backend() == culift::rt::Backend::Cpu) {
      std::printf("  No GPU: %s\n", whyNot.c_str());
      const auto report = culift::rt::probeEnvironment();
      for (const auto& s : culift::rt::suggestFixes(report)) {
        std::printf("  suggestion: %s\n", s.toString().c_str());
        indented("  " + s.detail);
      }
      std::printf("  >> Falling back to the CPU backend (the interpreter runs the same launches).\n");
    }
  }
  const double engineMs = msSince(tEngine);
  std::printf("  device   : %s\n", engine->device().toString().c_str());
  for (const auto& record : engine->compileRecords())
    std::printf("  compiled : %s for %s, %s %.1f ms\n", record.module.c_str(), record.target.c_str(),
                record.fromCache ? "from the cache," : "cold,", record.milliseconds);
  std::printf("  engine ready in %.1f ms\n", engineMs);

  std::vector<float> data(static_cast<size_t>(n) * n);
  {
    std::mt19937 rng(Seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (float& v : data) v = uniform(rng);
  }
  const size_t cells = static_cast<size_t>(n) * n;
  using culift::rt::DeviceBuffer;
  using culift::rt::LaunchPlanner;
  culift::rt::Engine& e = *engine;
  DeviceBuffer<float> x(e, data), rowSum(e, n), rowSumSq(e, n), dot(e, cells), corr(e, cells), dist(e, cells);

  auto timed = [&](const char* what, auto&& launch) {
    culift::rt::Event start = e.createEvent(), stop = e.createEvent();
    start.record(e);
    launch();
    stop.record(e);
    std::printf("  %-16s %10.3f ms\n", what, culift::rt::Event::elapsedMs(start, stop));
  };
  const auto rows1D = LaunchPlanner::for1D(n, 256);
  const auto cells2D = LaunchPlanner::for2D(n, n, 16, 16);
  timed("RowSum", [&] { e.kernel(module, "RowSum").launch(e, rows1D, x, n, rowSum); });
  timed("RowSumSq", [&] { e.kernel(module, "RowSumSq").launch(e, rows1D, x, n, rowSumSq); });
  timed("GramDot", [&] { e.kernel(module, "GramDot").launch(e, cells2D, x, n, dot); });
  timed("CorrelationCell",
        [&] { e.kernel(module, "CorrelationCell").launch(e, cells2D, dot, rowSum, rowSumSq, n, n, corr); });
  timed("DistanceCell", [&] { e.kernel(module, "DistanceCell").launch(e, cells2D, dot, rowSumSq, n, dist); });
  e.synchronize();
  const std::vector<float> corrOut = corr.read(), distOut = dist.read();

  // The element-wise convention: PearsonClamp over every cell, from host-side cov and denom.
  {
    const std::vector<float> hostDot = dot.read(), hostSum = rowSum.read(), hostSumSq = rowSumSq.read();
    std::vector<float> cov(cells), denom(cells), expected(cells);
    const float nf = static_cast<float>(n);
    for (int i = 0; i < n; ++i) {
      const float meanI = hostSum[i] / nf;
      const float sdI = std::sqrt(std::fmax(hostSumSq[i] - nf * meanI * meanI, 0.0f));
      for (int j = 0; j < n; ++j) {
        const float meanJ = hostSum[j] / nf;
        const size_t idx = static_cast<size_t>(i) * n + j;
        cov[idx] = hostDot[idx] - nf * meanI * meanJ;
        denom[idx] = sdI * std::sqrt(std::fmax(hostSumSq[j] - nf * meanJ * meanJ, 0.0f));
        expected[idx] = PearsonClamp(cov[idx], denom[idx]);
      }
    }
    DeviceBuffer<float> covBuf(e, cov), denomBuf(e, denom), clamped(e, cells);
    timed("PearsonClamp", [&] {
      e.kernel(module, "PearsonClamp")
          .launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(cells), 256), covBuf, denomBuf, clamped);
    });
    e.synchronize();
    const double clampErr = maxAbsError(clamped.read(), expected);
    const bool clampOk = clampErr <= 1e-5;
    std::printf("\n  PearsonClamp (element-wise) max |error| vs host = %.3e  %s\n", clampErr, verdict(clampOk));
    allOk = allOk && clampOk;
  }

  // ---- Step 4 ------------------------------------------------------------------------------
  title("Step 4: compare with double-precision CPU references");
  const auto tRef = Clock::now();
  std::vector<double> refCorr, refDist;
  cpuReferences(data, n, refCorr, refDist);
  std::printf("  references computed in %.1f ms\n", msSince(tRef));
  const double corrErr = maxAbsError(corrOut, refCorr), distErr = maxAbsError(distOut, refDist);
  const bool corrOk = corrErr <= 1e-3, distOk = distErr <= 1e-2;
  std::printf("  Pearson correlation matrix max |error| = %.3e  %s\n", corrErr, verdict(corrOk));
  std::printf("  Euclidean distance matrix  max |error| = %.3e  %s\n", distErr, verdict(distOk));
  allOk = allOk && corrOk && distOk;
  const char* where = engine->backend() == culift::rt::Backend::Gpu ? "GPU" : "CPU backend";
  preview((std::string("Pearson correlation (") + where + ")").c_str(), corrOut, n);
  preview((std::string("Euclidean distance (") + where + ")").c_str(), distOut, n);

  std::printf("\n%s\n", allOk ? "Every step of the tutorial passed." : "Some checks FAILED: see above.");
  return allOk ? 0 : 1;
}
