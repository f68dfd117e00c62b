// Start-up of the tutorial's module on the GPU, in a fresh process: translate the header,
// create the engine, compile and load the module (NVRTC or the disk cache), look up every
// kernel. scripts/gpu-session.sh runs it several times: with an empty cache directory (cold),
// then with the cache that run filled (warm).
//
//   culift_startup_bench --cache-dir DIR [--header FILE]
//
// Exit status: 0 measured, 2 setup error, 3 no GPU.
#include <chrono>
#include <cstdio>
#include <string>

#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/CommandLine.h"

namespace cl = llvm::cl;
using Clock = std::chrono::steady_clock;

namespace {

cl::opt<std::string> CacheDir("cache-dir", cl::desc("compile cache directory (empty: a cold start)"), cl::Required);
cl::opt<std::string> Header("header", cl::desc("the header to translate (default: the Pearson tutorial's)"),
                            cl::init(CULIFT_SOURCE_DIR "/examples/pearson/pearson_metrics.hpp"));

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

int main(int argc, char** argv) {
  cl::ParseCommandLineOptions(argc, argv, "culift start-up: translate, engine, module ready to launch\n");
  const auto t0 = Clock::now();
  culift::TranslateResult translated = culift::translate(Header.getValue());
  if (!translated.ok()) {
    std::fprintf(stderr, "%s", translated.formatDiagnostics().c_str());
    return 2;
  }
  const double translateMs = msSince(t0);

  culift::rt::EngineOptions options;
  options.cacheDir = CacheDir;
  const auto t1 = Clock::now();
  std::string whyNot;
  auto engine = culift::rt::Engine::tryCreate(options, &whyNot);
  if (!engine) {
    std::printf("startup: no GPU engine: %s\n", whyNot.c_str());
    return 3;
  }
  const double engineMs = msSince(t1);

  const auto t2 = Clock::now();
  unsigned kernels = 0;
  for (const culift::Function* fn : translated.module->kernels()) {
    (void)engine->kernel(translated.module, fn->name);
    ++kernels;
  }
  const double loadMs = msSince(t2);
  const auto records = engine->compileRecords();
  const bool fromCache = !records.empty() && records.front().fromCache;
  const double compileMs = records.empty() ? 0 : records.front().milliseconds;
  std::printf(
      "startup: %s: translate %.1f ms | engine %.1f ms | %u kernels ready in %.1f ms (%s %.1f ms) | "
      "engine + kernels %.1f ms\n",
      fromCache ? "warm (disk cache)" : "cold (empty cache)", translateMs, engineMs, kernels,
      loadMs, fromCache ? "cache read" : "NVRTC", compileMs, engineMs + loadMs);
  return 0;
}
