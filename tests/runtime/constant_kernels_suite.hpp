// Launches the kernels of data/constant_kernels.hpp (constants, uniform parameters) on one
// engine and checks every result bit for bit against the same functions compiled natively.
#pragma once

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "data/constant_kernels.hpp"
#include "gpu_support.hpp"

namespace culift::rttest {

inline std::shared_ptr<const Module> constantKernelsModule() {
  static const std::shared_ptr<const Module> module = [] {
    TranslateOptions options;
    options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
    TranslateResult r = translate(sourceFile("tests/runtime/data/constant_kernels.hpp"), options);
    INFO(r.formatDiagnostics());
    REQUIRE(r.ok());
    return std::shared_ptr<const Module>(r.module);
  }();
  return module;
}

// Elements whose bits differ. A NaN computed by arithmetic (NaN * 0.125f) has no promised sign
// or payload (the GPU gives its canonical NaN): with `anyNaN` two NaNs agree. A NaN constant
// passed through untouched keeps its exact bits everywhere.
template <typename T>
std::size_t differingBits(const std::vector<T>& got, const std::vector<T>& want, bool anyNaN = false) {
  REQUIRE(got.size() == want.size());
  std::size_t n = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    INFO("element " << k << ": got " << got[k] << ", native " << want[k]);
    bool same = std::memcmp(&got[k], &want[k], sizeof(T)) == 0;
    if constexpr (std::is_floating_point_v<T>) same = same || (anyNaN && std::isnan(got[k]) && std::isnan(want[k]));
    CHECK(same);
    n += !same;
  }
  return n;
}

// Every constant of each kind, one per element of an element-wise launch over `which`.
inline void runConstantKernels(rt::Engine& e) {
  auto module = constantKernelsModule();
  auto constants = [&]<typename T>(const char* name, T (*native)(int), int count) {
    INFO(name << " on the " << rt::name(e.backend()) << " backend");
    std::vector<int> which(static_cast<std::size_t>(count));
    std::vector<T> want;
    for (int k = 0; k < count; ++k) {
      which[static_cast<std::size_t>(k)] = k;
      want.push_back(native(k));
    }
    rt::DeviceBuffer<int> dw(e, which);
    rt::DeviceBuffer<T> out(e, which.size());
    e.kernel(module, name).launch(e, rt::LaunchPlanner::for1D(count), dw, out);
    e.synchronize();
    CHECK(differingBits(out.read(), want) == 0);
  };
  constants("FloatConstant", &FloatConstant, kFloatConstants);
  constants("DoubleConstant", &DoubleConstant, kDoubleConstants);
  constants("IntegerConstant", &IntegerConstant, kIntegerConstants);
}

// Uniform parameters passed once, the others per element; launches of every length around the
// vectorized entry's groups of 4, and the launch checks naming both kinds.
inline void runUniformKernels(rt::Engine& e) {
  auto module = constantKernelsModule();
  const Function* relu = module->find("LeakyRelu");
  REQUIRE(relu);
  REQUIRE(relu->mode == IndexMode::ElementWise);
  for (int n : {1, 3, 4, 7, 1000, 4099}) {
    INFO(n << " elements on the " << rt::name(e.backend()) << " backend");
    std::vector<float> x(static_cast<std::size_t>(n)), want(x.size());
    std::vector<double> xd(x.size()), yd(x.size()), wantd(x.size());
    std::vector<int> flags(x.size());
    std::vector<float> wantClamp(x.size());
    for (int k = 0; k < n; ++k) {
      const auto u = static_cast<std::size_t>(k);
      x[u] = k % 17 == 5 ? NAN : static_cast<float>(std::sin(0.37 * k) * 4.0);
      xd[u] = std::cos(0.11 * k);
      yd[u] = k * 0.25 - 3.0;
      flags[u] = k % 2;
      want[u] = LeakyRelu(x[u], 0.125f);
      wantd[u] = Axpby(2.5, xd[u], -0.75, yd[u]);
      wantClamp[u] = ClampOrFlag(x[u], -1.5f, 2.0f, flags[u]);
    }
    rt::DeviceBuffer<float> dx(e, x), out(e, x.size()), outClamp(e, x.size());
    rt::DeviceBuffer<double> dxd(e, xd), dyd(e, yd), outd(e, x.size());
    rt::DeviceBuffer<int> dflags(e, flags);
    const rt::LaunchPlan plan = rt::LaunchPlanner::for1D(n);
    e.kernel(module, "LeakyRelu").launch(e, plan, dx, 0.125f, out);
    e.kernel(module, "Axpby").launch(e, plan, 2.5, dxd, -0.75, dyd, outd);
    e.kernel(module, "ClampOrFlag").launch(e, plan, dx, -1.5f, 2.0f, dflags, outClamp);
    e.synchronize();
    CHECK(differingBits(out.read(), want, /*anyNaN=*/true) == 0);  // NaN * negativeSlope
    CHECK(differingBits(outd.read(), wantd) == 0);
    CHECK(differingBits(outClamp.read(), wantClamp) == 0);  // NAN and -INFINITY returned as constants
  }
  // The launch checks say which parameter is uniform and which is read per element.
  rt::DeviceBuffer<float> dx(e, 8), out(e, 8);
  try {
    e.kernel(module, "LeakyRelu").launch(e, rt::LaunchPlanner::for1D(8), dx, dx, out);
    FAIL("a buffer for the uniform parameter was accepted");
  } catch (const rt::ArgumentError& err) {
    INFO(err.what());
    CHECK(std::string(err.what())
              .find("('float negativeSlope') is uniform (one value for every element): pass a "
                    "float value") != std::string::npos);
  }
  try {
    e.kernel(module, "LeakyRelu").launch(e, rt::LaunchPlanner::for1D(8), 1.0f, 0.5f, out);
    FAIL("a scalar for the per-element parameter was accepted");
  } catch (const rt::ArgumentError& err) {
    INFO(err.what());
    CHECK(std::string(err.what()).find("('const float* x') is read per element: pass a DeviceBuffer<float>") !=
          std::string::npos);
  }
}

}  // namespace culift::rttest
