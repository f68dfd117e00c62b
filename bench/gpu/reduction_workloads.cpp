// The benchmark's reductions over long rows, lifted from reduction_kernels.hpp with their sums
// reassociated: a row sum, its fused pair with the row sum of squares, and layer norm over 16 rows of 4,194,304 floats
// and a matrix-vector product of 2048 rows of 1,048,576 (few rows: the split-row entries), softmax over 4096 rows of
// 393,216, and a running sum of each of 32768 rows of 32768 (the scan plan). No hand-written kernel: the copy row is
// the ceiling, PyTorch (eager and torch.compile) the comparison. Each checked against the functions compiled natively;
// one input set (each is more than the L2 floor by itself).
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "reduction_kernels.hpp"
#include "workloads.hpp"

namespace culift::bench {
namespace {

using rt::DeviceBuffer;
using rt::LaunchPlanner;

std::string shape(std::int64_t rows, std::int64_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

// `rows` rows spread over [0, total) (all of them when there are no more).
std::vector<std::int64_t> someRows(std::int64_t total, std::int64_t rows) {
  std::vector<std::int64_t> out;
  for (std::int64_t r = 0; r < std::min(total, rows); ++r) out.push_back(r * total / std::min(total, rows));
  return out;
}

// Up to `perRow` elements of each of `rows`, as flat indices of a rows x cols array.
std::vector<std::int64_t> elementsOf(const std::vector<std::int64_t>& rows, std::int64_t cols, std::uint64_t seed) {
  std::vector<std::int64_t> out;
  for (std::int64_t r : rows)
    for (std::int64_t k : sampleIndices(cols, 1 << 10, seed ^ static_cast<std::uint64_t>(r)))
      out.push_back(r * cols + k);
  return out;
}

// One row measured: its launches timed as one (a pipeline of three is one launch sequence).
void measure(Context& c, Row& row, const Launch& launch, const std::string& plans) {
  const auto t = timeInterleaved(c.engine, {launch}, 1, c.timing);
  row.generatedMs = t[0].medianMs;
  row.note = plans;
  logTimings(c, row, t, {"generated"});
}

// A pipeline measured: the whole as one launch sequence, each stage beside it (in the log).
void measure(Context& c, Row& row, const Launch& whole, const std::vector<Stage>& stages, const std::string& plans) {
  row.generatedMs = timeStages(c, row, whole, stages).medianMs;
  row.note = plans;
}

Row rowSum(Context& c, std::int64_t rows, std::int64_t cols, const std::vector<float>& x, DeviceBuffer<float>& dx) {
  Row row{"LongRowSum (reassociating)", shape(rows, cols)};
  row.bytes = 4.0 * static_cast<double>(rows * cols) + 4.0 * static_cast<double>(rows);
  row.torchKey = "rowsum_long " + row.size;
  row.tolerance = 1e-6 * static_cast<double>(cols);
  rt::Engine& e = c.engine;
  const rt::Kernel k = e.kernel(c.reductions, "LongRowSum");
  const rt::LaunchPlan plan = LaunchPlanner::for1D(rows, 256, e.device().limits);
  DeviceBuffer<float> out(e, static_cast<std::size_t>(rows));
  const long long n = cols;
  Launch g = [&](int) { k.launch(e, plan, dx, n, out); };
  auto want = [&](std::int64_t i) { return double(LongRowSum(x.data(), n, int(i))); };
  row.generatedErr = maxAbsError(runOnce(e, out, [&] { g(0); }), want, {}, rows);
  logCheck(c, row, "generated", row.generatedErr);
  measure(c, row, g, describePlan(k, plan));
  return row;
}

// The row sum and the row sum of squares as two launches of one pipeline, which runs them as one
// launch of their fused kernel (each row read once); each alone beside it, in the log.
Row rowStatistics(Context& c, std::int64_t rows, std::int64_t cols, const std::vector<float>& x,
                  DeviceBuffer<float>& dx) {
  Row row{"Row sum and sum of squares (fused; reassociating)", shape(rows, cols)};
  row.bytes = 4.0 * static_cast<double>(rows * cols) + 8.0 * static_cast<double>(rows);
  row.torchKey = "rowstats " + row.size;
  row.tolerance = 1e-6 * static_cast<double>(cols);
  rt::Engine& e = c.engine;
  const rt::Kernel sum = e.kernel(c.reductions, "LongRowSum"), squares = e.kernel(c.reductions, "LongRowSumSq");
  const rt::LaunchPlan plan = LaunchPlanner::for1D(rows, 256, e.device().limits);
  DeviceBuffer<float> dSum(e, static_cast<std::size_t>(rows)), dSquares(e, static_cast<std::size_t>(rows));
  const long long n = cols;
  rt::Pipeline pipeline(e);
  pipeline.add(sum, plan, dx, n, dSum).add(squares, plan, dx, n, dSquares);
  if (pipeline.launchesPerRun() != 1) throw std::runtime_error("the pipeline did not fuse the two launches");
  Launch g = [&](int) { pipeline.run(e); };
  // Both sums in double: a float sum of 4 million positive squares in the loop's order drifts by
  // thousands, far more than the reassociated order does, so it is no reference.
  std::vector<double> sums(static_cast<std::size_t>(rows)), squareSums(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t k = 0; k < cols; ++k) {
      const double v = x[static_cast<std::size_t>(i * cols + k)];
      sums[static_cast<std::size_t>(i)] += v;
      squareSums[static_cast<std::size_t>(i)] += v * v;
    }
  row.generatedErr = maxAbsError(
      runOnce(e, dSquares, [&] { g(0); }), [&](std::int64_t i) { return squareSums[static_cast<std::size_t>(i)]; }, {},
      rows);
  row.generatedErr = std::max(row.generatedErr,
                              maxAbsError(
                                  dSum.read(), [&](std::int64_t i) { return sums[static_cast<std::size_t>(i)]; }, {},
                                  rows));
  logCheck(c, row, "generated", row.generatedErr);
  const double elements = static_cast<double>(rows * cols);
  const rt::Kernel fused = e.kernel(c.reductions, pipeline.fusedKernels().at(0));
  measure(c, row, g,
          {{"LongRowSum " + describePlan(sum, plan, cols), [&](int) { sum.launch(e, plan, dx, n, dSum); },
            4 * elements},
           {"LongRowSumSq " + describePlan(squares, plan, cols), [&](int) { squares.launch(e, plan, dx, n, dSquares); },
            4 * elements}},
          "one launch of " + fused.name() + ", " + describePlan(fused, plan, cols));
  return row;
}

Row layerNorm(Context& c, std::int64_t rows, std::int64_t cols, const std::vector<float>& x, DeviceBuffer<float>& dx) {
  Row row{"LayerNorm (mean, variance, normalize; reassociating)", shape(rows, cols)};
  row.bytes = 8.0 * static_cast<double>(rows * cols);  // read once, written once (the best a fused form does)
  row.torchKey = "layernorm " + row.size;
  row.tolerance = 1e-3;
  rt::Engine& e = c.engine;
  const rt::Kernel mean = e.kernel(c.reductions, "RowMean"), variance = e.kernel(c.reductions, "RowVariance"),
                   normalize = e.kernel(c.reductions, "LayerNormalize");
  const rt::LaunchPlan perRow = LaunchPlanner::for1D(rows, 256, e.device().limits);
  const rt::LaunchPlan perElement = LaunchPlanner::for2D(rows, cols, 32, 8, e.device().limits);
  DeviceBuffer<float> dMean(e, static_cast<std::size_t>(rows)), dVar(e, static_cast<std::size_t>(rows)),
      out(e, static_cast<std::size_t>(rows * cols));
  const long long n = cols;
  // The three launches as one rt::Pipeline: a CUDA graph from its second run on.
  rt::Pipeline pipeline(e);
  pipeline.add(mean, perRow, dx, n, dMean)
      .add(variance, perRow, dx, dMean, n, dVar)
      .add(normalize, perElement, dx, dMean, dVar, n, out);
  Launch g = [&](int) { pipeline.run(e); };
  // The statistics summed in double, then rounded: a float sum of 4 million terms in the loop's
  // order drifts further from them than the reassociated order does, so it is no reference.
  std::vector<float> m(static_cast<std::size_t>(rows)), v(static_cast<std::size_t>(rows));
  for (std::int64_t i = 0; i < rows; ++i) {
    double sum = 0, squares = 0;
    for (std::int64_t k = 0; k < cols; ++k) sum += x[static_cast<std::size_t>(i * cols + k)];
    m[i] = static_cast<float>(sum / static_cast<double>(cols));
    for (std::int64_t k = 0; k < cols; ++k) {
      const double d = static_cast<double>(x[static_cast<std::size_t>(i * cols + k)]) - m[i];
      squares += d * d;
    }
    v[i] = static_cast<float>(squares / static_cast<double>(cols));
  }
  auto want = [&](std::int64_t idx) {
    return double(LayerNormalize(x.data(), m.data(), v.data(), n, int(idx / cols), int(idx % cols)));
  };
  row.generatedErr = maxAbsError(runOnce(e, out, [&] { g(0); }), want, sampleIndices(rows * cols, 1 << 20, c.seed ^ 3),
                                 rows * cols);
  logCheck(c, row, "generated", row.generatedErr);
  const double elements = static_cast<double>(rows * cols);
  measure(c, row, g,
          {{"RowMean " + describePlan(mean, perRow, cols), [&](int) { mean.launch(e, perRow, dx, n, dMean); },
            4 * elements},
           {"RowVariance " + describePlan(variance, perRow, cols),
            [&](int) { variance.launch(e, perRow, dx, dMean, n, dVar); }, 4 * elements},
           {"LayerNormalize " + describePlan(normalize, perElement),
            [&](int) { normalize.launch(e, perElement, dx, dMean, dVar, n, out); }, 8 * elements}},
          "mean " + describePlan(mean, perRow, cols) + "; variance " + describePlan(variance, perRow, cols) +
              "; normalize " + describePlan(normalize, perElement));
  return row;
}

Row matVec(Context& c, std::int64_t rows, std::int64_t cols) {
  Row row{"LongMatVec (reassociating)", shape(rows, cols)};
  row.bytes = 4.0 * static_cast<double>(rows * cols) + 4.0 * static_cast<double>(cols + rows);
  row.torchKey = "matvec_long " + row.size;
  row.tolerance = 1e-6 * static_cast<double>(cols);
  rt::Engine& e = c.engine;
  const std::vector<float> a = uniformFloats(c.seed ^ 0x3a7, static_cast<std::size_t>(rows * cols), -1, 1),
                           v = uniformFloats(c.seed ^ 0x3a8, static_cast<std::size_t>(cols), -1, 1);
  DeviceBuffer<float> dA(e, a), dv(e, v), out(e, static_cast<std::size_t>(rows));
  const rt::Kernel k = e.kernel(c.reductions, "LongMatVec");
  const rt::LaunchPlan plan = LaunchPlanner::for1D(rows, 256, e.device().limits);
  const long long n = cols;
  Launch g = [&](int) { k.launch(e, plan, dA, dv, n, out); };
  auto want = [&](std::int64_t i) { return double(LongMatVec(a.data(), v.data(), n, int(i))); };
  row.generatedErr = maxAbsError(runOnce(e, out, [&] { g(0); }), want, someRows(rows, 64), rows);
  logCheck(c, row, "generated", row.generatedErr);
  measure(c, row, g, describePlan(k, plan));
  return row;
}

Row softmax(Context& c, std::int64_t rows, std::int64_t cols) {
  Row row{"Softmax (max, sum of exp, normalize; reassociating)", shape(rows, cols)};
  row.bytes = 8.0 * static_cast<double>(rows * cols);
  row.torchKey = "softmax " + row.size;
  row.tolerance = 1e-6;  // each element is at most 1 / (about cols / e)
  rt::Engine& e = c.engine;
  const std::vector<float> x = uniformFloats(c.seed ^ 0x50f, static_cast<std::size_t>(rows * cols), -4, 4);
  DeviceBuffer<float> dx(e, x), dMax(e, static_cast<std::size_t>(rows)), dSum(e, static_cast<std::size_t>(rows)),
      out(e, static_cast<std::size_t>(rows * cols));
  const rt::Kernel max = e.kernel(c.reductions, "RowMax"), sum = e.kernel(c.reductions, "RowSumExp"),
                   normalize = e.kernel(c.reductions, "SoftmaxNormalize");
  const rt::LaunchPlan perRow = LaunchPlanner::for1D(rows, 256, e.device().limits);
  const rt::LaunchPlan perElement = LaunchPlanner::for2D(rows, cols, 32, 8, e.device().limits);
  const long long n = cols;
  rt::Pipeline pipeline(e);  // a CUDA graph from its second run on
  pipeline.add(max, perRow, dx, n, dMax)
      .add(sum, perRow, dx, dMax, n, dSum)
      .add(normalize, perElement, dx, dMax, dSum, n, out);
  Launch g = [&](int) { pipeline.run(e); };
  // The native functions over a few rows (the others are never read).
  const std::vector<std::int64_t> checked = someRows(rows, 16);
  std::vector<float> m(static_cast<std::size_t>(rows)), s(static_cast<std::size_t>(rows));
  for (std::int64_t i : checked) m[i] = RowMax(x.data(), n, int(i));
  for (std::int64_t i : checked) s[i] = RowSumExp(x.data(), m.data(), n, int(i));
  auto want = [&](std::int64_t idx) {
    return double(SoftmaxNormalize(x.data(), m.data(), s.data(), n, int(idx / cols), int(idx % cols)));
  };
  row.generatedErr = maxAbsError(runOnce(e, out, [&] { g(0); }), want, elementsOf(checked, cols, c.seed), rows * cols);
  logCheck(c, row, "generated", row.generatedErr);
  const double elements = static_cast<double>(rows * cols);
  measure(c, row, g,
          {{"RowMax " + describePlan(max, perRow, cols), [&](int) { max.launch(e, perRow, dx, n, dMax); },
            4 * elements},
           {"RowSumExp " + describePlan(sum, perRow, cols), [&](int) { sum.launch(e, perRow, dx, dMax, n, dSum); },
            4 * elements},
           {"SoftmaxNormalize " + describePlan(normalize, perElement),
            [&](int) { normalize.launch(e, perElement, dx, dMax, dSum, n, out); }, 8 * elements}},
          "max " + describePlan(max, perRow, cols) + "; sum " + describePlan(sum, perRow, cols) + "; normalize " +
              describePlan(normalize, perElement));
  return row;
}

// The running sum of every row of a square matrix (many rows, each written as it goes: the scan
// plan); in the loop's order, so each checked element must be the native function's, bit for bit.
Row cumSum(Context& c, std::int64_t rows, std::int64_t cols) {
  Row row{"CumSum (scan)", shape(rows, cols)};
  row.bytes = 8.0 * static_cast<double>(rows * cols);  // read once, written once
  row.torchKey = "cumsum " + row.size;
  row.tolerance = 0;
  rt::Engine& e = c.engine;
  const std::vector<float> x = uniformFloats(c.seed ^ 0xc5, static_cast<std::size_t>(rows * cols), -1, 1);
  DeviceBuffer<float> dx(e, x), out(e, static_cast<std::size_t>(rows * cols));
  const rt::Kernel k = e.kernel(c.reductions, "CumSum");
  const rt::LaunchPlan plan = LaunchPlanner::for1D(rows, 256, e.device().limits);
  const int n = static_cast<int>(cols);
  Launch g = [&](int) { k.launch(e, plan, dx, out, n); };
  // The native function over a few rows: row r of x as row 0 of its own (the same operations).
  const std::vector<std::int64_t> checked = someRows(rows, 64);
  std::vector<std::vector<float>> want(static_cast<std::size_t>(rows));
  for (std::int64_t r : checked) {
    want[r].resize(static_cast<std::size_t>(cols));
    CumSum(x.data() + r * cols, want[r].data(), n, 0);
  }
  std::vector<std::int64_t> sample = elementsOf(checked, cols, c.seed);
  for (std::int64_t r : checked) sample.push_back(r * cols + cols - 1);  // each row's whole sum
  row.generatedErr = maxAbsError(
      runOnce(e, out, [&] { g(0); }), [&](std::int64_t idx) { return double(want[idx / cols][idx % cols]); }, sample,
      rows * cols);
  logCheck(c, row, "generated", row.generatedErr);
  measure(c, row, g, describePlan(k, plan) + "; " + std::to_string(sample.size()) + " sampled elements checked");
  return row;
}

}  // namespace

std::vector<Row> benchReductions(Context& c, bool quick) {
  std::vector<Row> rows;
  auto attempt = [&](Row (*make)(Context&, std::int64_t, std::int64_t), std::int64_t r, std::int64_t n,
                     const char* what) {
    try {
      rows.push_back(make(c, r, n));
    } catch (const std::exception& ex) {
      Row failed{what, shape(r, n)};
      failed.error = ex.what();
      rows.push_back(std::move(failed));
    }
  };
  {
    // Few long rows: the row sum and layer norm share one input.
    const std::int64_t r = 16, n = quick ? 65536 : 4194304;
    const std::vector<float> x = uniformFloats(c.seed ^ 0x16, static_cast<std::size_t>(r * n), -1, 1);
    DeviceBuffer<float> dx(c.engine, x);
    using Workload = Row (*)(Context&, std::int64_t, std::int64_t, const std::vector<float>&, DeviceBuffer<float>&);
    const std::pair<Workload, const char*> sharing[] = {{rowSum, "LongRowSum (reassociating)"},
                                                        {rowStatistics, "Row sum and sum of squares"},
                                                        {layerNorm, "LayerNorm"}};
    for (const auto& [workload, name] : sharing) {
      try {
        rows.push_back(workload(c, r, n, x, dx));
      } catch (const std::exception& ex) {
        Row failed{name, shape(r, n)};
        failed.error = ex.what();
        rows.push_back(std::move(failed));
      }
    }
  }
  attempt(matVec, quick ? 256 : 2048, quick ? 65536 : 1048576, "LongMatVec (reassociating)");
  attempt(softmax, quick ? 256 : 4096, quick ? 16384 : 393216, "Softmax");
  attempt(cumSum, quick ? 4096 : 32768, quick ? 4096 : 32768, "CumSum (scan)");
  return rows;
}

}  // namespace culift::bench
