// Launches the kernels of data/table_kernels.hpp (element-wise kernels reading a coefficient or
// lookup table) on one engine and checks every result bit for bit against the same functions
// compiled natively.
#pragma once

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "data/table_kernels.hpp"
#include "gpu_support.hpp"

namespace culift::rttest {

inline std::shared_ptr<const Module> tableKernelsModule() {
  static const std::shared_ptr<const Module> module = [] {
    TranslateOptions options;
    options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
    TranslateResult r = translate(sourceFile("tests/runtime/data/table_kernels.hpp"), options);
    INFO(r.formatDiagnostics());
    REQUIRE(r.ok());
    REQUIRE(r.diagnostics.empty());  // every function gives a kernel: no warning
    return std::shared_ptr<const Module>(r.module);
  }();
  return module;
}

template <typename T> std::size_t differingTableBits(const std::vector<T>& got, const std::vector<T>& want) {
  REQUIRE(got.size() == want.size());
  std::size_t n = 0;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const bool same = std::memcmp(&got[k], &want[k], sizeof(T)) == 0;
    if (!same) {
      INFO("element " << k << ": got " << got[k] << ", native " << want[k]);
      CHECK(same);
    }
    n += !same;
  }
  return n;
}

// Every length around the vectorized entry's groups of 4; the table stays one buffer for all
// elements, shorter than the launch.
inline void runTableKernels(rt::Engine& e) {
  auto module = tableKernelsModule();
  for (const char* name : {"Horner", "HornerUniform", "Lerp8"}) {
    const Function* fn = module->find(name);
    REQUIRE(fn);
    CHECK(fn->mode == IndexMode::ElementWise);
  }
  const std::vector<float> coeff = {0.5f, -1.25f, 3.0f, 0.0625f, -7.5f, 2.0f, 1.0f / 3.0f, -0.1f};
  const std::vector<double> coeffd = {1.0 / 7.0, -2.5, 0.125, 3.75, -1.0 / 3.0, 0.2};
  const std::vector<float> table = {0.0f, 0.1f, 0.35f, 0.3f, 0.9f, 1.7f, 1.75f, 2.0f};
  rt::DeviceBuffer<float> dcoeff(e, coeff), dtable(e, table);
  rt::DeviceBuffer<double> dcoeffd(e, coeffd);
  for (int n : {1, 3, 4, 7, 1000, 4099}) {
    INFO(n << " elements on the " << rt::name(e.backend()) << " backend");
    const auto count = static_cast<std::size_t>(n);
    std::vector<int> degree(count);
    std::vector<float> x(count), t(count), want(count), wantLerp(count);
    std::vector<double> xd(count), wantd(count);
    for (std::size_t k = 0; k < count; ++k) {
      degree[k] = static_cast<int>(k % coeff.size());
      x[k] = static_cast<float>(std::sin(0.37 * static_cast<double>(k)) * 1.5);
      xd[k] = std::cos(0.11 * static_cast<double>(k)) * 2.0 - 0.5;
      t[k] = static_cast<float>(k % 101) / 101.0f;
      want[k] = Horner(coeff.data(), degree[k], x[k]);
      wantd[k] = HornerUniform(coeffd.data(), 5, xd[k]);
      wantLerp[k] = Lerp8(table.data(), t[k]);
    }
    rt::DeviceBuffer<int> ddegree(e, degree);
    rt::DeviceBuffer<float> dx(e, x), dt(e, t), out(e, count), outLerp(e, count);
    rt::DeviceBuffer<double> dxd(e, xd), outd(e, count);
    const rt::LaunchPlan plan = rt::LaunchPlanner::for1D(n);
    e.kernel(module, "Horner").launch(e, plan, dcoeff, ddegree, dx, out);
    e.kernel(module, "HornerUniform").launch(e, plan, dcoeffd, 5, dxd, outd);
    e.kernel(module, "Lerp8").launch(e, plan, dtable, dt, outLerp);
    e.synchronize();
    CHECK(differingTableBits(out.read(), want) == 0);
    CHECK(differingTableBits(outd.read(), wantd) == 0);
    CHECK(differingTableBits(outLerp.read(), wantLerp) == 0);
  }
  // The launch check says the table is one array for every element, and a per-element scalar
  // still needs its array.
  rt::DeviceBuffer<float> dx(e, 8), out(e, 8);
  rt::DeviceBuffer<int> ddegree(e, 8);
  try {
    e.kernel(module, "Horner").launch(e, rt::LaunchPlanner::for1D(8), 0.5f, ddegree, dx, out);
    FAIL("a scalar for the coefficient table was accepted");
  } catch (const rt::ArgumentError& err) {
    INFO(err.what());
    CHECK(std::string(err.what())
              .find("('const float* coeff') is an array, the same for every element: pass a "
                    "DeviceBuffer<float>") != std::string::npos);
  }
  try {
    e.kernel(module, "Horner").launch(e, rt::LaunchPlanner::for1D(8), dcoeff, 3, dx, out);
    FAIL("a scalar for the per-element degree was accepted");
  } catch (const rt::ArgumentError& err) {
    INFO(err.what());
    CHECK(std::string(err.what()).find("('const int* degree') is read per element") != std::string::npos);
  }
}

}  // namespace culift::rttest
