// A kernel that faults is reported as a CudaError naming the call and the CUDA error, not a
// crash. Its own executable: a fault leaves the process's context unusable.
#include <string>

#include "gpu_support.hpp"

using namespace culift;
using namespace culift::rt;

TEST_CASE("a faulting kernel is reported cleanly", "[gpu]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  // A Grid1D kernel whose body writes through a bad pointer.
  auto module = std::make_shared<Module>();
  module->sourcePath = "fault.cpp";
  Function f;
  f.name = "Poke";
  f.returnType = Type::value(Scalar::Void);
  f.mode = IndexMode::Grid1D;
  f.kernelName = "Poke_kernel";
  f.signature.params = {KernelParam{"y", Type::pointer(Scalar::F32, false), ParamRole::WritableArray, 0, -1},
                        KernelParam{"culift_n", Type::value(Scalar::I64), ParamRole::Extent, -1, 0}};
  f.vars.push_back(Var{"y", Type::pointer(Scalar::F32, false), {}, true});
  f.vars.push_back(Var{"i", Type::value(Scalar::I32), {}, true});
  f.numParams = 2;
  f.indexParams = {1};
  module->functions.push_back(std::move(f));
  module->cudaSource =
      "extern \"C\" __global__ void Poke_kernel(float* y, long long n) {\n"
      "  float* bad = (float*)0x10;\n"
      "  bad[threadIdx.x * 1000000] = y[0] + (float)n;\n"
      "}\n";
  DeviceBuffer<float> y(*gpu, 1);
  gpu->kernel(module, "Poke").launch(*gpu, LaunchPlanner::for1D(32), y);
  try {
    gpu->synchronize();
    FAIL("the fault was not reported");
  } catch (const CudaError& e) {
    INFO(e.what());
    CHECK(e.call() == "cuCtxSynchronize");
    CHECK(e.statusName().rfind("CUDA_ERROR_", 0) == 0);
    CHECK((e.status() == 700 || e.status() == 716 || e.status() == 719));
    CHECK(std::string(e.what()).find("cuCtxSynchronize failed: CUDA_ERROR_") == 0);
  }
}
