// The benchmark's convolution row: KernelBench's conv2d (x 256 x 3 x 224 x 224, 96 filters 11 x 11,
// stride 4, padding 2) lifted from conv_kernels.hpp, against cuDNN in fp32 through PyTorch
// (torch_baselines.py: `conv2d <size>`), checked against the function compiled natively at sampled
// outputs. The per-thread entry of the same kernel is timed beside it, in the note.
#include <string>

#include "conv_kernels.hpp"
#include "workloads.hpp"

namespace culift::bench {

std::vector<Row> benchConv(Context& c, ConvSize s) {
  rt::Engine& e = c.engine;
  std::vector<Row> rows;
  const int oh = (s.h + 2 * s.pad - s.r) / s.stride + 1, ow = (s.w + 2 * s.pad - s.r) / s.stride + 1;
  const std::string size = std::to_string(s.n) + "x" + std::to_string(s.c) + "x" + std::to_string(s.h) + "x" +
                           std::to_string(s.w) + "_" + std::to_string(s.k) + "x" + std::to_string(s.r) + "x" +
                           std::to_string(s.r) + "_s" + std::to_string(s.stride) + "p" + std::to_string(s.pad);
  Row row{"Conv2D (conv2d, convolution)", size};
  const std::size_t xCount = std::size_t(s.n) * s.c * s.h * s.w, wCount = std::size_t(s.k) * s.c * s.r * s.r;
  const double outputs = double(s.n) * s.k * oh * ow;
  row.bytes = 4.0 * (double(xCount) + double(wCount) + outputs);
  row.flops = 2.0 * s.c * s.r * s.r * outputs;
  row.torchKey = "conv2d " + size;
  row.tolerance = 1e-5 * s.c * s.r * s.r;
  try {
    const std::uint64_t seed = c.seed ^ 0xc0417;
    const std::vector<float> x = uniformFloats(seed, xCount, -1, 1), w = uniformFloats(seed + 1, wCount, -1, 1);
    rt::DeviceBuffer<float> dx(e, x), dw(e, w), gen(e, static_cast<std::size_t>(outputs));
    const rt::Kernel k = e.kernel(c.convolutions, "Conv2D");
    const rt::LaunchPlan plan = rt::LaunchPlanner::for3D(std::int64_t(s.n) * s.k, oh, ow, 32, 4, 2, e.device().limits);
    auto g = [&](const rt::LaunchPlan& p) {
      k.launch(e, p, dx, dw, s.c, s.h, s.w, s.k, s.r, s.r, s.stride, s.pad, gen);
    };
    auto want = [&](std::int64_t idx) {
      const int nk = int(idx / (std::int64_t(oh) * ow)), i = int(idx / ow % oh), j = int(idx % ow);
      return double(Conv2D(x.data(), w.data(), s.c, s.h, s.w, s.k, s.r, s.r, s.stride, s.pad, nk, i, j));
    };
    const auto total = static_cast<std::int64_t>(outputs);
    const auto sample = sampleIndices(total, 1 << 12, seed ^ 5);
    row.generatedErr = maxAbsError(runOnce(e, gen, [&] { g(plan); }), want, sample, total);
    logCheck(c, row, "generated", row.generatedErr);
    rt::LaunchPlan perThread = plan;
    perThread.perThread = true;
    g(plan);  // the shape's second launch, which takes (or times) its measured entry choice
    const std::string entry = describePlan(k, plan);  // as that launch ran it, before the per-thread ones
    const auto t = timeInterleaved(e, {[&](int) { g(plan); }, [&](int) { g(perThread); }}, 1, c.timing);
    row.generatedMs = t[0].medianMs;
    row.note = "TFLOP/s generated " + formatFixed(row.flops / (row.generatedMs * 1e9), 2) + "; " + entry +
               ", the per-thread entry " + formatMs(t[1].medianMs) + " ms; " + std::to_string(sample.size()) +
               " sampled outputs checked";
    logTimings(c, row, t, {"generated " + entry, "per-thread"});
  } catch (const std::exception& ex) {
    row.error = ex.what();
  }
  rows.push_back(std::move(row));
  return rows;
}

}  // namespace culift::bench
