// Start-up of the tutorial's module on the GPU, in a fresh process: translate the header,
// create the engine, compile and load the module (NVRTC or the disk cache), look up every
// kernel, make the first launch (RowSum, checked against the native build). scripts/gpu-session.sh
// runs it several times: with an empty cache directory (cold), then with the cache that run
// filled (warm); culift_embedded_startup_bench is the same start with kernels built with the app.
//
//   culift_startup_bench --cache-dir DIR [--header FILE | --source-root DIR]
//
// The default header is the Pearson tutorial's, looked up at run time (the binary travels to
// the GPU machine): under --source-root, else $CULIFT_SOURCE_ROOT, else the nearest folder above
// the executable that holds it (.gpu/ in the repository, or the build tree).
//
// Exit status: 0 measured, 1 a result differs from the native build, 2 setup error, 3 no GPU.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "startup_first_launch.hpp"

namespace cl = llvm::cl;
using Clock = std::chrono::steady_clock;

namespace {

cl::opt<std::string> CacheDir("cache-dir", cl::desc("compile cache directory (empty: a cold start)"), cl::Required);
cl::opt<std::string> Header("header", cl::desc("the header to translate (default: the Pearson tutorial's)"));
cl::opt<std::string> SourceRoot("source-root",
                                cl::desc("the repository root (default: $CULIFT_SOURCE_ROOT, the folders above the "
                                         "executable)"));

constexpr const char* kDefaultHeader = "examples/pearson/pearson_metrics.hpp";

// The Pearson tutorial's header under the given root, or the nearest folder above the
// executable; empty when none holds it.
std::string findDefaultHeader(const char* argv0) {
  auto under = [](llvm::StringRef root) {
    llvm::SmallString<256> path(root);
    llvm::sys::path::append(path, kDefaultHeader);
    return llvm::sys::fs::exists(path) ? std::string(path) : std::string();
  };
  const char* env = std::getenv("CULIFT_SOURCE_ROOT");
  if (!SourceRoot.empty()) return under(SourceRoot);
  if (env && *env) return under(env);
  static int anchor = 0;
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  for (llvm::StringRef dir = llvm::sys::path::parent_path(exe); !dir.empty();) {
    if (std::string path = under(dir); !path.empty()) return path;
    const llvm::StringRef up = llvm::sys::path::parent_path(dir);
    if (up == dir) break;
    dir = up;
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  using culift::bench::msSince;
  const auto start = Clock::now();
  cl::ParseCommandLineOptions(argc, argv, "culift start-up: translate, engine, module ready to launch\n");
  std::string header = Header;
  if (header.empty() && (header = findDefaultHeader(argv[0])).empty()) {
    const char* env = std::getenv("CULIFT_SOURCE_ROOT");
    const std::string where = !SourceRoot.empty() ? "--source-root '" + SourceRoot + "'"
                              : env && *env       ? "$CULIFT_SOURCE_ROOT ('" + std::string(env) + "')"
                                                  : std::string("any folder above the executable");
    std::fprintf(stderr,
                 "culift_startup_bench: cannot find %s under %s: pass --header FILE, or --source-root DIR (the "
                 "repository root)\n",
                 kDefaultHeader, where.c_str());
    return 2;
  }
  const auto t0 = Clock::now();
  culift::TranslateResult translated = culift::translate(header);
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
  const auto t3 = Clock::now();
  const bool matches = culift::bench::firstLaunchMatches(*engine, translated.module);
  const double launchMs = msSince(t3);
  std::printf(
      "startup: %s: translate %.1f ms | engine %.1f ms | %u kernels ready in %.1f ms (%s %.1f ms) | "
      "engine + kernels %.1f ms | first launch %.2f ms | main to first launch complete %.1f ms | results %s\n",
      fromCache ? "warm (disk cache)" : "cold (empty cache)", translateMs, engineMs, kernels, loadMs,
      fromCache ? "cache read" : "NVRTC", compileMs, engineMs + loadMs, launchMs, msSince(start),
      matches ? "match the native build" : "MISMATCH");
  return matches ? 0 : 1;
}
