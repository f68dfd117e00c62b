// Batched rectangle/triangle overlap: the plain C++ function in sat_overlap.hpp, lifted to a 1-D
// kernel, launched over a random batch (GPU, or the CPU backend where there is none) and
// compared with the same function compiled natively. Strict math: the answers must agree exactly.
//
//   sat_example [--count N] [--seed S] [--cpu]
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "sat_overlap.hpp"

namespace cl = llvm::cl;

namespace {
cl::opt<long long> Count("count", cl::desc("pairs in the batch (default: 1M on a GPU, 20000 on the CPU backend)"),
                         cl::init(0));
cl::opt<unsigned> Seed("seed", cl::desc("random seed (default 7)"), cl::init(7));
cl::opt<bool> ForceCpu("cpu", cl::desc("run on the CPU backend even where a GPU exists"));
cl::opt<std::string> Header("header", cl::desc("the header to translate"), cl::init(CULIFT_SAT_HEADER));
}  // namespace

int main(int argc, char** argv) {
  cl::ParseCommandLineOptions(argc, argv, "culift example: batched separating-axis test\n");
  // A binary copied to another machine runs from a checkout's root: the build tree's path may not exist.
  std::string header = Header;
  if (!llvm::sys::fs::exists(header) && llvm::sys::fs::exists("examples/sat/sat_overlap.hpp"))
    header = "examples/sat/sat_overlap.hpp";
  culift::TranslateResult translated = culift::translate(header);
  if (!translated.ok()) {
    std::fputs(translated.formatDiagnostics().c_str(), stderr);
    return 1;
  }
  const std::shared_ptr<const culift::Module> module = translated.module;

  culift::rt::EngineOptions options;
  options.math = culift::rt::MathMode::Strict;  // no FMA contraction: bit-exact with the native build
  std::string whyNot;
  auto engine = ForceCpu ? culift::rt::Engine::createCpu(options)
                         : culift::rt::Engine::createGpuOrCpu(options, &whyNot);
  const bool gpu = engine->backend() == culift::rt::Backend::Gpu;
  if (!gpu && !ForceCpu) std::printf("no GPU (%s): using the CPU backend\n", whyNot.c_str());
  std::printf("device: %s\n", engine->device().toString().c_str());

  const long long n = Count > 0 ? Count.getValue() : gpu ? 1ll << 20 : 20000;
  std::mt19937 rng(Seed);
  std::uniform_real_distribution<float> corner(0.0f, 1.0f), extent(0.05f, 0.3f), centre(-0.3f, 0.5f),
      offset(-0.25f, 0.25f);
  std::vector<float> rectMin(2 * n), rectMax(2 * n), triangle(6 * n);
  for (long long i = 0; i < n; ++i) {
    for (int a = 0; a < 2; ++a) {
      rectMin[2 * i + a] = corner(rng);
      rectMax[2 * i + a] = rectMin[2 * i + a] + extent(rng);
    }
    const float cx = rectMin[2 * i] + centre(rng), cy = rectMin[2 * i + 1] + centre(rng);  // about a fifth overlap
    for (int v = 0; v < 3; ++v) {
      triangle[6 * i + 2 * v] = cx + offset(rng);
      triangle[6 * i + 2 * v + 1] = cy + offset(rng);
    }
  }

  using culift::rt::DeviceBuffer;
  culift::rt::Engine& e = *engine;
  DeviceBuffer<float> dMin(e, rectMin), dMax(e, rectMax), dTri(e, triangle), out(e, n);
  const culift::rt::Kernel kernel = e.kernel(module, "RectTriangleOverlap");
  std::printf("kernel: %s%s over %lld pairs\n", kernel.function().kernelName.c_str(),
              kernel.function().signature.toString().c_str(), n);
  kernel.launch(e, culift::rt::LaunchPlanner::for1D(n, 256, e.device().limits), dMin, dMax, dTri, out);
  e.synchronize();
  const std::vector<float> got = out.read();

  long long mismatches = 0, overlaps = 0, first = -1;
  for (long long i = 0; i < n; ++i) {
    const float want = RectTriangleOverlap(rectMin.data(), rectMax.data(), triangle.data(), static_cast<int>(i));
    overlaps += want == 1.0f;
    if (got[i] != want) {
      if (first < 0) first = i;
      ++mismatches;
    }
  }
  std::printf("overlapping pairs: %lld of %lld (%.1f%%)\n", overlaps, n, 100.0 * overlaps / n);
  if (mismatches) {
    std::printf("%lld results differ from the native function (first at pair %lld: got %g)\nFAIL\n", mismatches, first,
                got[first]);
    return 1;
  }
  std::printf("every result equals the native function's\nOK\n");
  return 0;
}
