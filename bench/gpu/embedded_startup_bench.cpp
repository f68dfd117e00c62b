// Start-up of a process that uses kernels built with the app (culift_add_kernels: the Pearson
// tutorial's module embedded with an sm_90 cubin): from main to the first launch complete,
// with no Clang in the process. The other half of the comparison, translate + NVRTC (cold, or
// warm from the disk cache), is culift_startup_bench; scripts/gpu-session.sh runs both.
//
//   culift_embedded_startup_bench
//
// The module is read on a second thread while the engine starts (docs/getting-started.md
// recommends it). Prints one line of times: engine creation, the embedded module's read
// (checked, parsed), the cubin loaded by the driver, every kernel looked up,
// the first launch, and main to the first launch complete. Exit status: 0 measured and every
// result matched the native build, 1 a mismatch or libclang-cpp mapped, 3 no GPU.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <string>

#include "culift_kernels/pearson_metrics.hpp"
#include "startup_first_launch.hpp"

namespace {

bool mapsClang() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libclang-cpp") != std::string::npos) return true;
  return false;
}

}  // namespace

int main() {
  using culift::bench::msSince;
  const auto start = std::chrono::steady_clock::now();
  // The module is read (and checked) on a second thread while the engine starts: reading it
  // needs no device, and the engine's start (the driver's, some 200 ms) dwarfs it.
  double moduleMs = 0;
  std::future<std::shared_ptr<const culift::Module>> reading = std::async(std::launch::async, [&moduleMs] {
    const auto t = std::chrono::steady_clock::now();
    std::shared_ptr<const culift::Module> m = culift_kernels::pearson_metrics();
    moduleMs = msSince(t);
    return m;
  });
  culift::rt::EngineOptions options;
  options.nvrtcOptional = true;  // the embedded cubin needs no NVRTC
  std::string whyNot;
  auto engine = culift::rt::Engine::tryCreate(options, &whyNot);
  if (!engine) {
    std::printf("embedded startup: no GPU engine: %s\n", whyNot.c_str());
    return 3;
  }
  const double engineMs = msSince(start);

  const auto t1 = std::chrono::steady_clock::now();
  const std::shared_ptr<const culift::Module> module = reading.get();
  const double waitMs = msSince(t1);
  const auto t2 = std::chrono::steady_clock::now();
  engine->load(module);  // the cubin handed to the driver
  const double loadMs = msSince(t2);
  const auto t2b = std::chrono::steady_clock::now();
  unsigned kernels = 0;
  for (const culift::Function* fn : module->kernels()) {
    (void)engine->kernel(module, fn->name);  // ready to launch
    ++kernels;
  }
  const double lookupMs = msSince(t2b);
  const double readyMs = msSince(t1);

  const auto t3 = std::chrono::steady_clock::now();
  const bool matches = culift::bench::firstLaunchMatches(*engine, module);
  const double launchMs = msSince(t3);
  const double totalMs = msSince(start);

  const auto records = engine->compileRecords();
  const bool embedded = records.size() == 1 && records.front().embedded;
  const bool clang = mapsClang();
  std::printf(
      "embedded startup: engine %.1f ms | module read %.3f ms (beside the engine's start; waited %.3f ms) | cubin "
      "loaded %.3f ms | %u kernels looked up %.3f ms | kernels ready %.3f ms after the engine | first launch %.2f "
      "ms | main to first launch complete %.1f ms | %s | libclang-cpp mapped: %s | results %s\n",
      engineMs, moduleMs, waitMs, loadMs, kernels, lookupMs, readyMs, launchMs, totalMs,
      embedded ? ("embedded cubin " + records.front().target).c_str() : "NOT the embedded cubin", clang ? "yes" : "no",
      matches ? "match the native build" : "MISMATCH");
  return matches && embedded && !clang ? 0 : 1;
}
