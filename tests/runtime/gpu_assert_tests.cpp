// Device asserts: with EngineOptions::deviceAsserts a lifted assert() is checked on the GPU, and a
// failed one is reported as CudaError CUDA_ERROR_ASSERT. Its own executable: a failed device
// assert leaves the process's context unusable.
#include <algorithm>
#include <string>
#include <vector>

#include "constant_kernels_suite.hpp"
#include "gpu_support.hpp"

using namespace culift;
using namespace culift::rt;

TEST_CASE("a failed device assert is reported as CUDA_ERROR_ASSERT under deviceAsserts", "[gpu][assert]") {
  EngineOptions options;
  options.deviceAsserts = true;
  std::string why;
  auto gpu = Engine::tryCreate(options, &why);
  if (!gpu) {
    culift::test::noGpu(why);
    return;
  }
  auto module = rttest::constantKernelsModule();
  // Passing elements: the checked kernel computes as without asserts.
  std::vector<float> good = {4.0f, 0.0f, 9.0f};
  DeviceBuffer<float> dg(*gpu, good), outGood(*gpu, good.size());
  gpu->kernel(module, "CheckedSqrt").launch(*gpu, LaunchPlanner::for1D(3), dg, outGood);
  gpu->synchronize();
  CHECK(outGood.read() == std::vector<float>{2.0f, 0.0f, 3.0f});
  bool optionGiven = false;
  for (const CompileRecord& record : gpu->compileRecords())
    optionGiven = optionGiven || std::find(record.options.begin(), record.options.end(), "-DCULIFT_DEVICE_ASSERTS") !=
                                     record.options.end();
  CHECK(optionGiven);

  // A negative element fails the assert.
  std::vector<float> bad = {4.0f, -1.0f, 9.0f};
  DeviceBuffer<float> db(*gpu, bad), outBad(*gpu, bad.size());
  try {
    gpu->kernel(module, "CheckedSqrt").launch(*gpu, LaunchPlanner::for1D(3), db, outBad);
    gpu->synchronize();
    FAIL("the failed device assert was not reported");
  } catch (const CudaError& e) {
    INFO(e.what());
    CHECK(e.status() == 710);
    CHECK(e.statusName() == "CUDA_ERROR_ASSERT");
    CHECK(std::string(e.what()).find("a device-side assertion failed") != std::string::npos);
  }
}
