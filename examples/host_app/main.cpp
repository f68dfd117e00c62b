// host_app: launches the kernels of kernels/signal-stats.hpp, embedded at build time, on the GPU
// (from the embedded cubin when it is the device's, else compiled with NVRTC) or on the CPU
// backend, and checks them against the same functions compiled natively. No Clang: the process
// never maps libclang-cpp, and it says so.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "culift/runtime/runtime.hpp"
#include "culift_kernels/signal_stats.hpp"
#include "signal-stats.hpp"

namespace {

bool mapsClang() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find("libclang-cpp") != std::string::npos) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto msSince = [](Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
  };
  const bool forceCpu = argc > 1 && std::string(argv[1]) == "--cpu";
  culift::rt::EngineOptions options;
  options.nvrtcOptional = true;  // an embedded cubin needs no NVRTC
  std::string whyNot;
  auto engine = forceCpu ? culift::rt::Engine::createCpu(options)
                         : culift::rt::Engine::createGpuOrCpu(options, &whyNot);
  if (!whyNot.empty()) std::printf("no GPU (%s): the CPU backend runs the kernels\n", whyNot.c_str());
  std::printf("device: %s\n", engine->device().toString().c_str());

  const auto engineReady = Clock::now();
  const std::shared_ptr<const culift::Module> kernels = culift_kernels::signal_stats();
  engine->load(kernels);  // the embedded cubin, NVRTC or the interpreter: ready to launch
  const double loadMs = msSince(engineReady);
  const int rows = 1000, cols = 37;
  std::vector<float> x(rows * cols);
  for (int e = 0; e < rows * cols; ++e) x[e] = static_cast<float>((e * 7919) % 1000) / 250.0f - 2.0f;

  culift::rt::Engine& e = *engine;
  culift::rt::DeviceBuffer<float> dx(e, x), means(e, rows), amplified(e, x.size());
  e.kernel(kernels, "RowMean")
      .launch(e, culift::rt::LaunchPlanner::for1D(rows, 256, e.device().limits), dx, cols, means);
  e.kernel(kernels, "Amplify")
      .launch(e, culift::rt::LaunchPlanner::for1D(rows * cols, 256, e.device().limits), dx, 0.75f, amplified);
  e.synchronize();
  const double firstLaunchMs = msSince(start);

  // Bit for bit: the row sum keeps its order on every backend, and nothing here can contract
  // into an FMA.
  const std::vector<float> gotMeans = means.read(), gotAmplified = amplified.read();
  int wrong = 0;
  for (int i = 0; i < rows; ++i)
    if (gotMeans[i] != RowMean(x.data(), cols, i)) ++wrong;
  for (int k = 0; k < rows * cols; ++k)
    if (gotAmplified[k] != Amplify(x[k], 0.75f)) ++wrong;

  for (const culift::rt::CompileRecord& r : e.compileRecords())
    std::printf("module %s: %s%s\n", r.module.c_str(), r.target.c_str(),
                r.embedded    ? " (embedded cubin)"
                : r.fromCache ? " (compile cache)"
                              : "");
  std::printf("RowMean over %d rows, Amplify over %d samples: %s\n", rows, rows * cols,
              wrong ? "MISMATCH" : "match the native build");
  std::printf("kernels ready %.3f ms after the engine; main to the launches complete: %.1f ms\n", loadMs,
              firstLaunchMs);
  const bool clang = mapsClang();
  std::printf("libclang-cpp mapped: %s\n", clang ? "yes" : "no");
  return wrong || clang ? 1 : 0;
}
