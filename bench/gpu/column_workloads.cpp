// The benchmark's column rows: reductions over a middle axis, lifted from column_cells.hpp (the
// loop planner's column reduction), beside the PyTorch calls that do the same work (x.sum(1), and
// x / sqrt(mean(x^2, dim=1, keepdim=True) + eps)). No hand-written kernel: the ceiling is the copy
// row's bandwidth.
#include <string>

#include "column_cells.hpp"
#include "workloads.hpp"

namespace culift::bench {
namespace {

using rt::DeviceBuffer;
using rt::LaunchPlanner;

std::string shape(std::initializer_list<std::int64_t> dims) {
  std::string s;
  for (std::int64_t d : dims) s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

}  // namespace

std::vector<Row> benchColumns(Context& c, ColumnSizes sizes) {
  rt::Engine& e = c.engine;
  std::vector<Row> rows;
  if (!c.columns) throw std::runtime_error("column_cells.hpp was not translated");

  // x.sum(1) of (d0, d1, d2): 2-D over the (d0, d2) outputs.
  {
    const int d0 = sizes.sum[0], d1 = sizes.sum[1], d2 = sizes.sum[2];
    Row row{"ColumnSum", shape({d0, d1, d2})};
    const std::int64_t outputs = std::int64_t(d0) * d2, elements = outputs * d1;
    row.bytes = 4.0 * static_cast<double>(elements + outputs);
    row.torchKey = "colsum " + row.size;
    row.tolerance = 1e-5 * d1;
    try {
      const std::vector<float> x = uniformFloats(c.seed ^ 0xc01, static_cast<std::size_t>(elements), -1, 1);
      DeviceBuffer<float> dx(e, x), out(e, static_cast<std::size_t>(outputs));
      const rt::Kernel k = e.kernel(c.columns, "ColumnSum");
      const rt::LaunchPlan plan = LaunchPlanner::for2D(d0, d2, 32, 8, e.device().limits);
      Launch g = [&](int) { k.launch(e, plan, dx, d1, d2, out); };
      auto want = [&](std::int64_t o) { return double(ColumnSum(x.data(), d1, d2, int(o / d2), int(o % d2))); };
      checkAndTime(c, row, k, plan, g, want, sampleIndices(outputs, 1 << 12, c.seed ^ 0xc02), outputs, out, "outputs");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // RMS norm over dim 1 of (B, F, S): the root mean squares (2-D over (b, s)), then every element
  // divided (3-D), timed together.
  {
    const int B = sizes.rms[0], F = sizes.rms[1], S = sizes.rms[2];
    Row row{"RmsNorm (RmsOverF + RmsNormalize)", shape({B, F, S})};
    const std::int64_t columns = std::int64_t(B) * S, elements = columns * F;
    row.bytes = 4.0 * 2 * static_cast<double>(elements);  // x read once, the result written once
    row.torchKey = "rmsnorm " + row.size;
    row.tolerance = 1e-5;
    const float eps = 1e-6f;
    try {
      const std::vector<float> x = uniformFloats(c.seed ^ 0xc03, static_cast<std::size_t>(elements), -1, 1);
      DeviceBuffer<float> dx(e, x), rms(e, static_cast<std::size_t>(columns)),
          out(e, static_cast<std::size_t>(elements));
      const rt::Kernel kr = e.kernel(c.columns, "RmsOverF"), kn = e.kernel(c.columns, "RmsNormalize");
      const rt::LaunchPlan pr = LaunchPlanner::for2D(B, S, 32, 8, e.device().limits);
      const rt::LaunchPlan pn = LaunchPlanner::for3D(B, F, S, 256, 1, 1, e.device().limits);
      rt::Pipeline pipeline(e);  // a CUDA graph from its second run on
      pipeline.add(kr, pr, dx, F, S, eps, rms).add(kn, pn, dx, rms, F, S, out);
      Launch g = [&](int) { pipeline.run(e); };
      auto rmsOf = [&](std::int64_t col) { return RmsOverF(x.data(), F, S, eps, int(col / S), int(col % S)); };
      auto want = [&](std::int64_t idx) {
        const std::int64_t b = idx / (std::int64_t(F) * S), s = idx % S;
        const float r = rmsOf(b * S + s);
        return double(x[static_cast<std::size_t>(idx)] / r);
      };
      poison(rms);
      const std::vector<float> got = runOnce(e, out, [&] { g(0); });
      const auto sample = sampleIndices(elements, 1 << 12, c.seed ^ 0xc04);
      row.generatedErr = maxAbsError(got, want, sample, elements);
      // The root mean squares themselves, against the native function (the division above used it).
      const std::vector<float> r = rms.read();
      const auto colSample = sampleIndices(columns, 1 << 12, c.seed ^ 0xc05);
      row.generatedErr = std::max(row.generatedErr,
                                  maxAbsError(
                                      r, [&](std::int64_t col) { return double(rmsOf(col)); }, colSample, columns));
      logCheck(c, row, "generated", row.generatedErr);
      const double n = static_cast<double>(elements);
      row.generatedMs = timeStages(c, row, g,
                                   {{"RmsOverF " + describePlan(kr, pr),
                                     [&](int) { kr.launch(e, pr, dx, F, S, eps, rms); }, 4 * n},
                                    {"RmsNormalize " + describePlan(kn, pn),
                                     [&](int) { kn.launch(e, pn, dx, rms, F, S, out); }, 8 * n}})
                            .medianMs;
      row.note = describePlan(kr, pr) + ", then " + describePlan(kn, pn) + "; " + std::to_string(sample.size()) +
                 " sampled elements and " + std::to_string(colSample.size()) + " root mean squares checked";
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // The same RMS norm as one function (RmsNorm): the loop planner runs its loop once per column
  // (b, s) and the division for every f, so x is read from memory once.
  {
    const int B = sizes.rms[0], F = sizes.rms[1], S = sizes.rms[2];
    Row row{"RmsNorm (one function)", shape({B, F, S})};
    const std::int64_t elements = std::int64_t(B) * S * F;
    row.bytes = 4.0 * 2 * static_cast<double>(elements);
    row.torchKey = "rmsnorm " + row.size;
    row.tolerance = 1e-5;
    const float eps = 1e-6f;
    try {
      const std::vector<float> x = uniformFloats(c.seed ^ 0xc03, static_cast<std::size_t>(elements), -1, 1);
      DeviceBuffer<float> dx(e, x), out(e, static_cast<std::size_t>(elements));
      const rt::Kernel k = e.kernel(c.columns, "RmsNorm");
      const rt::LaunchPlan plan = LaunchPlanner::for3D(B, F, S, 256, 1, 1, e.device().limits);
      Launch g = [&](int) { k.launch(e, plan, dx, F, S, eps, out); };
      auto want = [&](std::int64_t idx) {
        const std::int64_t b = idx / (std::int64_t(F) * S), f = idx / S % F, s = idx % S;
        return double(RmsNorm(x.data(), F, S, eps, int(b), int(f), int(s)));
      };
      checkAndTime(c, row, k, plan, g, want, sampleIndices(elements, 1 << 12, c.seed ^ 0xc06), elements, out,
                   "elements");
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace culift::bench
