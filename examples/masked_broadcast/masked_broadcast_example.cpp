// Masked broadcast of row 0: the plain C++ function in masked_broadcast.hpp, lifted to a 2-D
// kernel (rows on y, columns on x), launched over a random matrix and mask (GPU, or the CPU
// backend where there is none) and compared with the same function compiled natively.
//
//   masked_broadcast_example [--rows R] [--cols C] [--seed S] [--cpu]
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "masked_broadcast.hpp"

namespace cl = llvm::cl;

namespace {
cl::opt<int> Rows("rows", cl::desc("rows (default: 2048 on a GPU, 256 on the CPU backend)"), cl::init(0));
cl::opt<int> Cols("cols", cl::desc("columns (default: 1000, not a multiple of the block width)"), cl::init(1000));
cl::opt<unsigned> Seed("seed", cl::desc("random seed (default 7)"), cl::init(7));
cl::opt<bool> ForceCpu("cpu", cl::desc("run on the CPU backend even where a GPU exists"));
cl::opt<std::string> Header("header", cl::desc("the header to translate"), cl::init(CULIFT_MASKED_BROADCAST_HEADER));
}  // namespace

int main(int argc, char** argv) {
  cl::ParseCommandLineOptions(argc, argv, "culift example: masked broadcast of row 0\n");
  // A binary copied to another machine runs from a checkout's root: the build tree's path may not exist.
  std::string header = Header;
  if (!llvm::sys::fs::exists(header) && llvm::sys::fs::exists("examples/masked_broadcast/masked_broadcast.hpp"))
    header = "examples/masked_broadcast/masked_broadcast.hpp";
  culift::TranslateResult translated = culift::translate(header);
  if (!translated.ok()) {
    std::fputs(translated.formatDiagnostics().c_str(), stderr);
    return 1;
  }
  const std::shared_ptr<const culift::Module> module = translated.module;

  culift::rt::EngineOptions options;
  options.math = culift::rt::MathMode::Strict;
  std::string whyNot;
  auto engine = ForceCpu ? culift::rt::Engine::createCpu(options)
                         : culift::rt::Engine::createGpuOrCpu(options, &whyNot);
  const bool gpu = engine->backend() == culift::rt::Backend::Gpu;
  if (!gpu && !ForceCpu) std::printf("no GPU (%s): using the CPU backend\n", whyNot.c_str());
  std::printf("device: %s\n", engine->device().toString().c_str());

  const int rows = Rows > 0 ? Rows.getValue() : gpu ? 2048 : 256, cols = Cols;
  if (cols <= 0) {
    std::fprintf(stderr, "masked_broadcast_example: --cols must be positive\n");
    return 2;
  }
  const std::size_t cells = static_cast<std::size_t>(rows) * cols;
  std::mt19937 rng(Seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<float> x(cells);
  for (float& v : x) v = value(rng);
  // std::vector<bool> packs bits; the kernel reads one byte per bool, as the native function does.
  std::unique_ptr<bool[]> mask(new bool[cols]);
  for (int j = 0; j < cols; ++j) mask[j] = (rng() & 1) != 0;

  using culift::rt::DeviceBuffer;
  culift::rt::Engine& e = *engine;
  DeviceBuffer<float> dx(e, x), out(e, cells);
  DeviceBuffer<bool> dMask(e, std::span<const bool>(mask.get(), cols));
  const culift::rt::Kernel kernel = e.kernel(module, "MaskedBroadcastRow0");
  const auto plan = culift::rt::LaunchPlanner::for2D(rows, cols, 32, 8, e.device().limits);
  std::printf("kernel: %s%s, %s\n", kernel.function().kernelName.c_str(),
              kernel.function().signature.toString().c_str(), plan.toString().c_str());
  kernel.launch(e, plan, dx, dMask, cols, out);
  e.synchronize();
  const std::vector<float> got = out.read();

  std::size_t mismatches = 0, first = cells;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const std::size_t idx = static_cast<std::size_t>(i) * cols + j;
      if (got[idx] != MaskedBroadcastRow0(x.data(), mask.get(), cols, i, j)) {
        if (first == cells) first = idx;
        ++mismatches;
      }
    }
  if (mismatches) {
    std::printf("%zu cells differ from the native function (first at row %zu, column %zu)\nFAIL\n", mismatches,
                first / cols, first % cols);
    return 1;
  }
  std::printf("all %zu cells equal the native function's\nOK\n", cells);
  return 0;
}
