// The first launch both start-up benchmarks make: RowSum of the Pearson tutorial over a small
// matrix, read back and checked bit for bit against the same function compiled natively.
#pragma once

#include <chrono>
#include <memory>
#include <vector>

#include "culift/runtime/runtime.hpp"
#include "pearson_metrics.hpp"

namespace culift::bench {

inline double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Launches RowSum over 64 rows of 96 columns and waits for it; true when every sum matches
// the native build.
inline bool firstLaunchMatches(rt::Engine& engine, const std::shared_ptr<const Module>& module) {
  const int rows = 64, cols = 96;
  std::vector<float> x(rows * cols);
  for (int e = 0; e < rows * cols; ++e) x[e] = static_cast<float>((e * 7919) % 1000) / 250.0f - 2.0f;
  rt::DeviceBuffer<float> dx(engine, x), sums(engine, rows);
  engine.kernel(module, "RowSum").launch(engine, rt::LaunchPlanner::for1D(rows), dx, cols, sums);
  engine.synchronize();
  const std::vector<float> got = sums.read();
  for (int i = 0; i < rows; ++i)
    if (got[i] != RowSum(x.data(), cols, i)) return false;
  return true;
}

}  // namespace culift::bench
