// culift's GPU benchmark: each lifted kernel beside a hand-written expert kernel, timed side by
// side in one run (CUDA events, warm-up, median, inputs rotated past the L2), both checked
// against the header function compiled natively; the device-to-device copy as the ceiling;
// PyTorch baselines joined in from torch_baselines.py's output. Without a GPU it still reports
// what costs no device time (translate and NVRTC times, ptxas resource usage) and exits 3.
//
//   culift_gpu_bench [--out DIR] [--torch FILE] [--quick] [--only NAME]...
//
// Exit status: 0 every check passed, 1 a check failed or a row errored, 2 setup error, 3 no GPU,
// 124 the time limit was reached.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "bench_support.hpp"
#include "compile_report.hpp"
#include "culift/codegen.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "workloads.hpp"

namespace cl = llvm::cl;
using namespace culift;
using namespace culift::bench;
using Clock = std::chrono::steady_clock;

namespace {

cl::opt<std::string> OutDir("out", cl::desc("directory for the logs, emitted sources, cubins and ptxas reports"));
cl::opt<std::string> TorchFile("torch", cl::desc("torch_baselines.py output to join into the table"));
cl::opt<std::string> SourceRoot(
    "source-root", cl::desc("the repository root (default: $CULIFT_SOURCE_ROOT, the build's source tree, .)"));
cl::opt<bool> Quick("quick", cl::desc("small sizes and few samples: a smoke test, not a measurement"));
cl::list<std::string> Only(
    "only",
    cl::desc(
        "run only rows whose group matches: copy, sat, masked, clamp, pearson, blas, matmul, batched, reductions, stencil, columns, conv"));
cl::opt<long long> SatPairs("sat-pairs", cl::desc("SAT batch size (default 16M)"), cl::init(1ll << 24));
cl::opt<int> MaskedSize("masked-size", cl::desc("masked broadcast rows = cols (default 4096)"), cl::init(4096));
cl::opt<long long> ClampN("clamp-n", cl::desc("PearsonClamp elements (default 16M)"), cl::init(1ll << 24));
cl::opt<int> BlasSize("blas-size", cl::desc("GEMM, SYRK and matrix-vector size (default 4096)"), cl::init(4096));
cl::list<int> PearsonSizes("pearson-size", cl::desc("Pearson matrix sizes (default 1024 and 4096)"));
cl::opt<long long> CopyMiB("copy-mib", cl::desc("copy ceiling: MiB copied (default 1024)"), cl::init(1024));
cl::opt<unsigned long long> Seed("seed", cl::desc("random seed (default: a fresh one, printed)"), cl::init(0));
cl::opt<int> Samples("samples", cl::desc("timed samples per kernel at most (default 50)"), cl::init(50));
cl::opt<double> BudgetMs("budget-ms", cl::desc("device time per kernel for its samples (default 1500)"),
                         cl::init(1500));
cl::opt<int> TimeLimit("time-limit", cl::desc("seconds before giving up (default 540)"), cl::init(540));
cl::opt<int> DeviceOrdinal("device", cl::desc("GPU ordinal (default 0)"), cl::init(0));

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

bool wanted(const char* group) { return Only.empty() || std::find(Only.begin(), Only.end(), group) != Only.end(); }

void title(const char* text) { std::printf("\n== %s\n", text); }

std::shared_ptr<const Module> translateOrExit(const std::string& path, bool reassociate = false) {
  TranslateOptions options;
  options.reassociate = reassociate;
  TranslateResult r = translate(path, options);
  if (!r.ok()) {
    std::fprintf(stderr, "%s", r.formatDiagnostics().c_str());
    std::fprintf(stderr, "gpu-bench: translating %s failed\n", path.c_str());
    std::exit(2);
  }
  return r.module;
}

}  // namespace

int main(int argc, char** argv) {
  cl::ParseCommandLineOptions(argc, argv, "culift GPU benchmark: lifted kernels vs hand-written CUDA vs PyTorch\n");
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const auto started = Clock::now();
  // Never hang: past the limit, say so and leave (the rows measured so far are already printed).
  std::thread([limit = TimeLimit.getValue()] {
    std::this_thread::sleep_for(std::chrono::seconds(limit));
    std::fprintf(stdout, "\ngpu-bench: the time limit of %d s was reached; stopping\n", limit);
    std::fflush(stdout);
    std::_Exit(124);
  }).detach();

  const std::uint64_t seed = Seed ? Seed.getValue() : std::random_device{}();
  std::printf("culift GPU benchmark (seed %llu)\n", static_cast<unsigned long long>(seed));
  if (!OutDir.empty()) llvm::sys::fs::create_directories(OutDir);

  // ---- Translate ----------------------------------------------------------------------------
  title("translate()");
  std::string satPath, maskedPath, pearsonPath, blasPath, reductionsPath, stencilPath, columnsPath, convPath, refPath;
  try {
    satPath = sourceFile(SourceRoot, "examples/sat/sat_overlap.hpp");
    maskedPath = sourceFile(SourceRoot, "examples/masked_broadcast/masked_broadcast.hpp");
    pearsonPath = sourceFile(SourceRoot, "examples/pearson/pearson_metrics.hpp");
    blasPath = sourceFile(SourceRoot, "bench/gpu/blas_cells.hpp");
    reductionsPath = sourceFile(SourceRoot, "bench/gpu/reduction_kernels.hpp");
    stencilPath = sourceFile(SourceRoot, "bench/gpu/stencil_kernels.hpp");
    columnsPath = sourceFile(SourceRoot, "bench/gpu/column_cells.hpp");
    convPath = sourceFile(SourceRoot, "bench/gpu/conv_kernels.hpp");
    refPath = sourceFile(SourceRoot, "bench/gpu/reference_kernels.cu");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu-bench: %s\n", e.what());
    return 2;
  }
  auto t0 = Clock::now();
  auto pearson = translateOrExit(pearsonPath);
  const double firstTranslateMs = msSince(t0);
  std::vector<double> again;
  for (int r = 0; r < 3; ++r) {
    t0 = Clock::now();
    translateOrExit(pearsonPath);
    again.push_back(msSince(t0));
  }
  std::sort(again.begin(), again.end());
  std::printf("  %s: %zu functions; first call %.1f ms (includes Clang start-up), then median %.1f ms\n",
              pearsonPath.c_str(), pearson->functions.size(), firstTranslateMs, again[1]);
  auto blas = translateOrExit(blasPath);
  auto columns = translateOrExit(columnsPath);
  // The same kernels allowed to reassociate their sums (the 1-D row reductions change plan).
  auto pearsonReassociated = translateOrExit(pearsonPath, true);
  auto blasReassociated = translateOrExit(blasPath, true);
  auto reductions = translateOrExit(reductionsPath);
  auto sat = translateOrExit(satPath);
  auto masked = translateOrExit(maskedPath);
  auto stencil = translateOrExit(stencilPath);
  auto convolutions = translateOrExit(convPath);
  std::printf("  %s and %s translated\n", satPath.c_str(), maskedPath.c_str());

  // ---- Engine -------------------------------------------------------------------------------
  title("device");
  rt::EngineOptions engineOptions;
  engineOptions.deviceOrdinal = DeviceOrdinal;
  engineOptions.math = rt::MathMode::Default;  // what a user gets; both kinds of kernel compile alike
  std::string whyNot;
  std::shared_ptr<rt::Engine> engine;
  try {
    engine = rt::Engine::tryCreate(engineOptions, &whyNot);
  } catch (const std::exception& e) {
    whyNot = e.what();
  }
  if (engine) std::printf("  %s, driver %d\n", engine->device().toString().c_str(), engine->device().driverVersion);
  else std::printf("  no GPU: %s\n", whyNot.c_str());

  // ---- What costs no device time ------------------------------------------------------------
  std::shared_ptr<const rt::Nvrtc> nvrtc = engine ? engine->nvrtc() : rt::Nvrtc::load(&whyNot);
  const int arch = engine ? engine->device().arch() : 90;
  const std::vector<std::string> compileOptions = rt::RawModule::compileOptions(engineOptions);
  std::string refSource;
  try {
    refSource = readText(refPath);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu-bench: %s\n", e.what());
    return 2;
  }
  if (nvrtc) {
    title("NVRTC compile of the tutorial's module (pearson_metrics.hpp)");
    try {
      reportCompileTimes(*nvrtc, {"pearson_metrics", pearson->cudaSource}, compileOptions, arch, stdout);
      title("ptxas resource usage (generated modules vs reference_kernels.cu)");
      reportResources(*nvrtc,
                      {{"sat_overlap", sat->cudaSource},
                       {"masked_broadcast", masked->cudaSource},
                       {"pearson_metrics", pearson->cudaSource},
                       {"blas_cells", blas->cudaSource},
                       {"reduction_kernels", reductions->cudaSource},
                       {"stencil_kernels", stencil->cudaSource},
                       {"column_cells", columns->cudaSource},
                       {"conv_kernels", convolutions->cudaSource},
                       {"reference_kernels", refSource}},
                      compileOptions, arch, OutDir, stdout);
      if (!OutDir.empty()) std::printf("  sources, cubins and ptxas logs written to %s\n", OutDir.c_str());
    } catch (const std::exception& e) {
      std::printf("  compile report failed: %s\n", e.what());
    }
  } else {
    std::printf("  no NVRTC: %s\n", whyNot.c_str());
  }

  if (!engine) {
    std::printf(
        "\ngpu-bench: no GPU, so no timing table (%s).\n"
        "Run scripts/gpu-bench.sh on the GPU machine for the measurements.\n",
        whyNot.c_str());
    return 3;
  }

  // ---- The rows -----------------------------------------------------------------------------
  std::unique_ptr<rt::RawModule> refs;
  try {
    refs = std::make_unique<rt::RawModule>(*engine, refSource, "reference_kernels.cu");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu-bench: compiling the reference kernels failed: %s\n", e.what());
    return 2;
  }
  Context c{*engine, *refs, sat, masked, pearson, blas, seed};
  c.pearsonReassociated = pearsonReassociated;
  c.blasReassociated = blasReassociated;
  c.reductions = reductions;
  c.stencil = stencil;
  c.columns = columns;
  c.convolutions = convolutions;
  if (Quick) {
    c.timing.maxSamples = 7;
    c.timing.budgetMs = 100;
  } else {
    c.timing.maxSamples = std::max(Samples.getValue(), 3);
    c.timing.minSamples = std::min(c.timing.minSamples, c.timing.maxSamples);
    c.timing.budgetMs = BudgetMs;
  }
  c.timing.hold = [&](double ms) {
    long long ns = static_cast<long long>(ms * 1e6);
    void* args[] = {&ns};
    refs->launch("ref_delay", rt::Dim3{1}, rt::Dim3{1}, 0, args);
  };

  std::vector<Row> rows;
  auto attempt = [&](const char* kernel, const std::string& size, auto&& body) {
    std::printf("\n-- %s %s\n", kernel, size.c_str());
    const auto tRow = Clock::now();
    try {
      auto result = body();
      if constexpr (std::is_same_v<decltype(result), Row>) rows.push_back(std::move(result));
      else
        for (Row& r : result) rows.push_back(std::move(r));
    } catch (const std::exception& e) {
      Row r{kernel, size};
      r.error = e.what();
      rows.push_back(std::move(r));
      std::printf("  ERROR: %s\n", e.what());
      try {
        engine->synchronize();
      } catch (const std::exception& sticky) {
        std::printf("  the device is unusable after this error (%s): stopping\n", sticky.what());
        return false;
      }
    }
    std::printf("  (%.1f s)\n", msSince(tRow) / 1000);
    return true;
  };

  const long long copyBytes = (Quick ? 64ll : CopyMiB.getValue()) << 20;
  const long long satPairs = Quick ? 1ll << 20 : SatPairs.getValue();
  const int maskedSize = Quick ? 1024 : MaskedSize.getValue();
  const long long clampN = Quick ? 1ll << 20 : ClampN.getValue();
  std::vector<int> pearsonSizes(PearsonSizes.begin(), PearsonSizes.end());
  if (pearsonSizes.empty()) pearsonSizes = Quick ? std::vector<int>{256} : std::vector<int>{1024, 4096};

  bool usable = true;
  usable = usable && attempt("copy", std::to_string(copyBytes >> 20) + " MiB", [&] { return benchCopy(c, copyBytes); });
  if (usable && wanted("sat"))
    usable = attempt("RectTriangleOverlap (SAT)", std::to_string(satPairs), [&] { return benchSat(c, satPairs); });
  if (usable && wanted("masked"))
    usable = attempt("MaskedBroadcastRow0", std::to_string(maskedSize) + "x" + std::to_string(maskedSize),
                     [&] { return benchMaskedBroadcast(c, maskedSize, maskedSize); });
  if (usable && wanted("clamp"))
    usable = attempt("PearsonClamp (element-wise)", std::to_string(clampN),
                     [&] { return benchPearsonClamp(c, clampN); });
  for (int n : pearsonSizes)
    if (usable && wanted("pearson"))
      usable = attempt("Pearson kernels", std::to_string(n), [&] { return benchPearson(c, n); });
  const int blasSize = Quick ? 256 : BlasSize.getValue();
  if (usable && wanted("blas"))
    usable = attempt("BLAS kernels", std::to_string(blasSize), [&] { return benchBlas(c, blasSize); });
  MatMulSizes matMulSizes;
  if (Quick) matMulSizes = MatMulSizes{{96, 160, 64}, {100, 72, 90}};
  if (usable && wanted("matmul"))
    usable = attempt("matrix multiplies", Quick ? "small" : "2048x8192x4096, 4000^3",
                     [&] { return benchMatMul(c, matMulSizes); });
  BatchedSizes batchedSizes;
  if (Quick) batchedSizes = BatchedSizes{{3, 64, 96, 128}, {16, 32, 48, 40}};
  if (usable && wanted("batched"))
    usable = attempt("batched contractions", Quick ? "small" : "bmm 128x512x1024x2048, doitgen 256^4",
                     [&] { return benchBatched(c, batchedSizes); });
  if (usable && wanted("reductions"))
    usable = attempt("reductions over long rows", Quick ? "small" : "16x4M, 2048x1M, 4096x393216",
                     [&] { return benchReductions(c, Quick); });
  if (usable && wanted("stencil"))
    usable = attempt("stencil kernels", Quick ? "quick" : "PolyBench sizes", [&] {
      return Quick ? benchStencils(c, 64, 256, 2, 64, 72, 56) : benchStencils(c, 256, 2048, 20, 256, 288, 224);
    });
  ColumnSizes columnSizes;
  if (Quick) columnSizes = ColumnSizes{{8, 256, 255}, {4, 64, 32 * 32}};
  if (usable && wanted("columns"))
    usable = attempt("column reductions", "", [&] { return benchColumns(c, columnSizes); });
  ConvSize convSize;
  if (Quick) convSize = ConvSize{4, 3, 64, 64, 40, 11, 4, 2};
  if (usable && wanted("conv"))
    usable = attempt("convolution", Quick ? "small" : "KernelBench conv2d", [&] { return benchConv(c, convSize); });

  // ---- The table ----------------------------------------------------------------------------
  const auto torch = readTorchBaselines(TorchFile);
  for (Row& r : rows) {
    if (r.torchKey.empty()) continue;
    if (auto it = torch.find(r.torchKey); it != torch.end()) r.torchMs = it->second;
    // "sat_compiled 16777216": torch.compile of the same PyTorch code.
    const std::string compiled = r.torchKey.substr(0, r.torchKey.find(' ')) + "_compiled" +
                                 r.torchKey.substr(r.torchKey.find(' '));
    if (auto it = torch.find(compiled); it != torch.end()) r.torchCompiledMs = it->second;
  }
  double copyGBs = kNaN;
  for (const Row& r : rows)
    if (r.kernel.rfind("copy", 0) == 0 && r.error.empty()) copyGBs = r.bytes / (r.handMs * 1e6);

  bool allPassed = true;
  for (const Row& r : rows) allPassed = allPassed && r.passed();
  std::printf("\n== culift GPU benchmark: %s, seed %llu, %s math, copy ceiling %s GB/s, %.0f s\n",
              engine->device().toString().c_str(), static_cast<unsigned long long>(seed),
              std::string(rt::name(engineOptions.math)).c_str(), formatFixed(copyGBs, 0).c_str(),
              msSince(started) / 1000);
  std::printf(
      "   hand/gen = hand-written ms / generated ms (>= 0.95 is the target for memory-bound kernels); eager/gen and "
      "compile/gen: PyTorch eager and torch.compile ms / generated ms (above 1: culift is faster); GB/s = the "
      "fewest bytes a launch must move / time; torch: %s\n",
      torch.empty() ? "no baselines given (--torch)" : TorchFile.c_str());
  printTable(rows, copyGBs, stdout);
  std::printf("%s\n", allPassed ? "every check passed" : "SOME CHECKS FAILED (see the check column)");
  return allPassed ? 0 : 1;
}
