// The benchmark's stencil rows: PolyBench's heat-3d (two launches per time step) and jacobi-2d
// (the same), and the 27-point 3-D convolution, lifted from stencil_kernels.hpp. Memory-bound:
// the figure is the bandwidth against the copy ceiling (GB/s = the bytes a launch must move, each
// input read once and each output written once). No hand-written kernel: the per-thread entry of
// the same kernel is timed beside the stencil entry, in the note.
#include <cmath>
#include <string>

#include "stencil_kernels.hpp"
#include "workloads.hpp"

namespace culift::bench {
namespace {

using rt::DeviceBuffer;
using rt::LaunchPlanner;

// The planned launch and the per-thread one, timed side by side; the row's note names the entry.
void timeBoth(Context& c, Row& row, const rt::Kernel& k, const rt::LaunchPlan& plan,
              const std::function<void(const rt::LaunchPlan&)>& run, const std::string& what) {
  rt::LaunchPlan perThread = plan;
  perThread.perThread = true;
  // The entry as the planned launch ran it (after the check's launch, the shape's second: it takes
  // or times its measured entry choice), before the per-thread launches take the kernel's latest.
  run(plan);
  const std::string entry = describePlan(k, plan);
  const auto t = timeInterleaved(c.engine, {[&](int) { run(plan); }, [&](int) { run(perThread); }}, 1, c.timing);
  row.generatedMs = t[0].medianMs;
  const double gbs = row.bytes / (row.generatedMs * 1e6), perThreadGBs = row.bytes / (t[1].medianMs * 1e6);
  row.note = entry + "; " + what + "; " + formatFixed(gbs, 0) + " GB/s, the per-thread entry " +
             formatMs(t[1].medianMs) + " ms (" + formatFixed(perThreadGBs, 0) + " GB/s)";
  logTimings(c, row, t, {"generated " + entry, "per-thread"});
}

}  // namespace

std::vector<Row> benchStencils(Context& c, int heatN, int jacobiN, int steps, int convI, int convJ, int convK) {
  rt::Engine& e = c.engine;
  std::vector<Row> rows;
  const std::uint64_t seed = c.seed ^ 0x57e9c11;

  // heat-3d: B from A, then A from B, `steps` times.
  {
    Row row{"Heat3D (heat-3d, stencil)", std::to_string(heatN) + "^3 x " + std::to_string(steps) + " steps"};
    const std::size_t cells = static_cast<std::size_t>(heatN) * heatN * heatN;
    row.bytes = 2.0 * steps * 2.0 * 8.0 * static_cast<double>(cells);
    row.tolerance = 1e-12;
    try {
      const std::vector<double> a = uniformDoubles(seed, cells, -1, 1);
      DeviceBuffer<double> dA(e, a), dB(e, cells);
      const rt::Kernel k = e.kernel(c.stencil, "Heat3D");
      const std::int64_t extent[3] = {heatN, heatN, heatN};
      const rt::LaunchPlan plan = LaunchPlanner::forThreads(3, extent, 256, e.device().limits);
      // One launch against the function compiled natively, at sampled points.
      k.launch(e, plan, dA, dB, heatN);
      e.synchronize();
      const std::vector<double> got = dB.read();
      std::vector<double> want(cells);
      double err = 0;
      const auto sample = sampleIndices(static_cast<std::int64_t>(cells), 1 << 14, seed ^ 3);
      for (std::int64_t idx : sample) {
        const int i = int(idx / (std::int64_t{heatN} * heatN)), j = int(idx / heatN % heatN), kk = int(idx % heatN);
        Heat3D(a.data(), want.data(), heatN, i, j, kk);
        err = std::max(err, std::isnan(got[idx]) ? INFINITY : std::fabs(got[idx] - want[idx]));
      }
      row.generatedErr = err;
      logCheck(c, row, "generated", err);
      timeBoth(
          c, row, k, plan,
          [&](const rt::LaunchPlan& p) {
            for (int s = 0; s < steps; ++s) {
              k.launch(e, p, dA, dB, heatN);
              k.launch(e, p, dB, dA, heatN);
            }
          },
          std::to_string(2 * steps) + " launches, " + std::to_string(sample.size()) + " sampled points checked");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // jacobi-2d: the same two launches per step, in float.
  {
    Row row{"Jacobi2D (jacobi-2d, stencil)", std::to_string(jacobiN) + "^2 x " + std::to_string(steps) + " steps"};
    const std::size_t cells = static_cast<std::size_t>(jacobiN) * jacobiN;
    row.bytes = 2.0 * steps * 2.0 * 4.0 * static_cast<double>(cells);
    row.tolerance = 1e-6;
    try {
      const std::vector<float> a = uniformFloats(seed + 1, cells, -1, 1);
      DeviceBuffer<float> dA(e, a), dB(e, cells);
      const rt::Kernel k = e.kernel(c.stencil, "Jacobi2D");
      const rt::LaunchPlan plan = LaunchPlanner::for2D(jacobiN, jacobiN, 32, 8, e.device().limits);
      const std::vector<float> got = runOnce(e, dB, [&] { k.launch(e, plan, dA, jacobiN, dB); });
      auto want = [&](std::int64_t idx) {
        return double(Jacobi2D(a.data(), jacobiN, int(idx / jacobiN), int(idx % jacobiN)));
      };
      row.generatedErr = maxAbsError(got, want, {}, static_cast<std::int64_t>(cells));
      logCheck(c, row, "generated", row.generatedErr);
      timeBoth(
          c, row, k, plan,
          [&](const rt::LaunchPlan& p) {
            for (int s = 0; s < steps; ++s) {
              k.launch(e, p, dA, jacobiN, dB);
              k.launch(e, p, dB, jacobiN, dA);
            }
          },
          std::to_string(2 * steps) + " launches, every point of one checked");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // The 27-point 3-D convolution: one launch.
  {
    Row row{"Conv3D (27-point, stencil)",
            std::to_string(convI) + "x" + std::to_string(convJ) + "x" + std::to_string(convK)};
    const std::size_t cells = static_cast<std::size_t>(convI) * convJ * convK;
    row.bytes = 2.0 * 4.0 * static_cast<double>(cells);
    row.tolerance = 1e-5;
    try {
      const std::vector<float> a = uniformFloats(seed + 2, cells, -1, 1), w = uniformFloats(seed + 3, 27, -1, 1);
      DeviceBuffer<float> dA(e, a), dw(e, w), dOut(e, cells);
      const rt::Kernel k = e.kernel(c.stencil, "Conv3D");
      const std::int64_t extent[3] = {convI, convJ, convK};
      const rt::LaunchPlan plan = LaunchPlanner::forThreads(3, extent, 256, e.device().limits);
      const std::vector<float> got = runOnce(e, dOut, [&] { k.launch(e, plan, dA, dw, convI, convJ, convK, dOut); });
      auto want = [&](std::int64_t idx) {
        const int i = int(idx / (std::int64_t{convJ} * convK)), j = int(idx / convK % convJ), kk = int(idx % convK);
        return double(Conv3D(a.data(), w.data(), convI, convJ, convK, i, j, kk));
      };
      const auto sample = sampleIndices(static_cast<std::int64_t>(cells), 1 << 14, seed ^ 5);
      row.generatedErr = maxAbsError(got, want, sample, static_cast<std::int64_t>(cells));
      logCheck(c, row, "generated", row.generatedErr);
      timeBoth(
          c, row, k, plan, [&](const rt::LaunchPlan& p) { k.launch(e, p, dA, dw, convI, convJ, convK, dOut); },
          std::to_string(sample.size()) + " sampled points checked");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace culift::bench
