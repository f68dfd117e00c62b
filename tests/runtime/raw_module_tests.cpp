// RawModule: hand-written CUDA compiled with the engine's options and cache, launched beside
// lifted kernels. The option and NVRTC parts run without a GPU; launches are tagged [gpu].
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "culift/runtime/raw_module.hpp"
#include "culift/runtime/runtime.hpp"
#include "gpu_support.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace culift;
using namespace culift::rt;

namespace {
const char* kAxpy = R"(
extern "C" __global__ void raw_axpy(float a, const float* __restrict__ x, float* __restrict__ y, long long n) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}
)";

// A fresh cache directory per test, so cache hits and misses are this test's own.
std::string freshCacheDir(const char* tag) {
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory(std::string("culift-raw-") + tag, dir));
  return std::string(dir);
}
}  // namespace

TEST_CASE("raw modules compile with the engine's options, then the caller's", "[raw]") {
  EngineOptions options;
  CHECK(RawModule::compileOptions(options) == std::vector<std::string>{"-lineinfo"});
  options.math = MathMode::Strict;
  options.lineInfo = false;
  CHECK(RawModule::compileOptions(options, {"-DTILE=64"}) == std::vector<std::string>{"--fmad=false", "-DTILE=64"});
  options.math = MathMode::Fast;
  options.lineInfo = true;
  CHECK(RawModule::compileOptions(options) == std::vector<std::string>{"--use_fast_math", "-lineinfo"});
}

TEST_CASE("raw-module options reach NVRTC, and ptxas reports resource usage", "[raw][nvrtc]") {
  std::string why;
  auto nvrtc = Nvrtc::load(&why);
  if (!nvrtc) {
    culift::test::noNvrtc(why);
    return;
  }
  const auto options = RawModule::compileOptions({}, {"--ptxas-options=-v"});
  CompileCache cache(CompileCache::Options{freshCacheDir("ptxas"), true, {}});
  CompileRequest request{kAxpy, "axpy.cu", options, "test"};
  const CompiledImage image = compileImage(*nvrtc, &cache, request, chooseTarget(*nvrtc, 90));
  REQUIRE(image.image);
  CHECK_FALSE(image.fromCache);
  CHECK(std::find(image.options.begin(), image.options.end(), "-lineinfo") != image.options.end());
  INFO(image.log);
  CHECK(image.log.find("raw_axpy") != std::string::npos);
  CHECK(image.log.find("registers") != std::string::npos);
  // The same request again: the cache has it, with the same options in its key.
  const CompiledImage again = compileImage(*nvrtc, &cache, request, chooseTarget(*nvrtc, 90));
  CHECK(again.fromCache);
  CHECK(*again.image == *image.image);
}

TEST_CASE("raw modules refuse the CPU backend with a clear message", "[raw][cpu]") {
  if (!Engine::cpuBackendAvailable()) {
    WARN("skipped: culift was built without the CPU backend");
    return;
  }
  auto cpu = Engine::createCpu();
  try {
    RawModule m(*cpu, kAxpy, "axpy.cu");
    FAIL("a raw module was created on the CPU backend");
  } catch (const Error& e) {
    const std::string what = e.what();
    CHECK(what.find("axpy.cu") != std::string::npos);
    CHECK(what.find("GPU backend only") != std::string::npos);
  }
}

TEST_CASE("a raw module launches hand-written CUDA beside lifted kernels", "[raw][gpu]") {
  EngineOptions options;
  options.math = MathMode::Strict;
  options.cacheDir = freshCacheDir("gpu");
  std::string why;
  auto gpu = Engine::tryCreate(options, &why);
  if (!gpu) {
    culift::test::noGpu(why);
    return;
  }
  RawModule m(*gpu, kAxpy, "axpy.cu");
  CHECK(m.record().target == "sm_" + std::to_string(gpu->device().arch()));
  CHECK_FALSE(m.record().fromCache);
  CHECK(std::find(m.record().options.begin(), m.record().options.end(), "--fmad=false") != m.record().options.end());
  CHECK(m.hasKernel("raw_axpy"));
  CHECK_FALSE(m.hasKernel("no_such_kernel"));

  const long long n = 100003;  // not a multiple of the block: the loop's bound matters
  std::vector<float> x(n), y(n);
  for (long long k = 0; k < n; ++k) {
    x[k] = static_cast<float>(k % 97) * 0.25f;
    y[k] = static_cast<float>(k % 13) - 6.0f;
  }
  DeviceBuffer<float> dx(*gpu, x), dy(*gpu, y);
  float a = 3.0f;
  std::uint64_t px = dx.address(), py = dy.address();
  long long count = n;
  void* args[] = {&a, &px, &py, &count};
  Stream s = gpu->createStream();
  m.launch("raw_axpy", Dim3{64}, Dim3{256}, 0, args, &s);  // a small grid: the grid-stride loop covers the rest
  s.synchronize();
  const std::vector<float> got = dy.read();
  long long wrong = 0;
  for (long long k = 0; k < n; ++k)
    if (got[k] != a * x[k] + y[k]) ++wrong;  // strict math: no FMA on either side
  CHECK(wrong == 0);

  try {
    m.launch("no_such_kernel", Dim3{1}, Dim3{1}, 0, args);
    FAIL("an unknown kernel launched");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("no kernel 'no_such_kernel'") != std::string::npos);
  }
  // The same source on the same engine: found in the engine's cache.
  RawModule again(*gpu, kAxpy, "axpy.cu");
  CHECK(again.record().fromCache);
}
