#include "workloads.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "masked_broadcast.hpp"
#include "pearson_metrics.hpp"
#include "sat_overlap.hpp"

namespace culift::bench {
namespace {

using rt::DeviceBuffer;
using rt::Dim3;
using rt::LaunchPlanner;

unsigned blocksFor(std::int64_t threads, unsigned block) {
  return static_cast<unsigned>((threads + block - 1) / block);
}

std::vector<DeviceBuffer<float>> floatBuffers(rt::Engine& e, int count, std::size_t elements) {
  std::vector<DeviceBuffer<float>> out;
  out.reserve(count);
  for (int s = 0; s < count; ++s) out.emplace_back(e, elements);
  return out;
}

}  // namespace

std::vector<double> uniformDoubles(std::uint64_t seed, std::size_t n, float lo, float hi) {
  std::vector<double> v(n);
  parallelFor(static_cast<std::int64_t>(n), [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t k = b; k < e; ++k) v[k] = uniform(seed, k, lo, hi);
  });
  return v;
}

std::vector<float> uniformFloats(std::uint64_t seed, std::size_t n, float lo, float hi) {
  std::vector<float> v(n);
  parallelFor(static_cast<std::int64_t>(n), [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t k = b; k < e; ++k) v[k] = uniform(seed, k, lo, hi);
  });
  return v;
}

void logTimings(Context& c, const Row& row, const std::vector<Timing>& t, const std::vector<std::string>& names) {
  for (size_t k = 0; k < t.size(); ++k)
    std::fprintf(c.log, "  time  %-28s %-10s %-30s median %s ms  min %s  max %s  (%d samples x %d launches)\n",
                 row.kernel.c_str(), row.size.c_str(), names[k].c_str(), formatMs(t[k].medianMs).c_str(),
                 formatMs(t[k].minMs).c_str(), formatMs(t[k].maxMs).c_str(), t[k].samples, t[k].batch);
  std::fflush(c.log);
}

Timing timeStages(Context& c, const Row& row, const Launch& whole, const std::vector<Stage>& stages) {
  std::vector<Launch> launches{whole};
  std::vector<std::string> names{"generated (whole)"};
  for (const Stage& s : stages) {
    launches.push_back(s.launch);
    names.push_back("stage " + s.name);
  }
  const std::vector<Timing> t = timeInterleaved(c.engine, launches, 1, c.timing);
  logTimings(c, row, t, names);
  double sum = 0;
  for (size_t k = 0; k < stages.size(); ++k) {
    sum += t[k + 1].medianMs;
    std::fprintf(c.log, "  stage %-28s %-10s %-44s %s ms  %7.0f GB/s\n", row.kernel.c_str(), row.size.c_str(),
                 stages[k].name.c_str(), formatMs(t[k + 1].medianMs).c_str(),
                 stages[k].bytes / (t[k + 1].medianMs * 1e6));
  }
  std::fprintf(c.log, "  stage %-28s %-10s %-44s %s ms (whole %s ms)\n", row.kernel.c_str(), row.size.c_str(),
               "sum of the stages", formatMs(sum).c_str(), formatMs(t[0].medianMs).c_str());
  std::fflush(c.log);
  return t[0];
}

void logCheck(Context& c, const Row& row, const char* which, double err) {
  std::fprintf(c.log, "  check %-28s %-10s %-30s max |err| %.3e (tolerance %.1e)\n", row.kernel.c_str(),
               row.size.c_str(), which, err, row.tolerance);
  std::fflush(c.log);
}

// Runs `launch` once on poisoned output, then reads the output back.
template <typename T> std::vector<T> runOnce(rt::Engine& e, DeviceBuffer<T>& out, const std::function<void()>& launch) {
  poison(out);
  launch();
  e.synchronize();
  return out.read();
}
template std::vector<float> runOnce(rt::Engine&, DeviceBuffer<float>&, const std::function<void()>&);
template std::vector<double> runOnce(rt::Engine&, DeviceBuffer<double>&, const std::function<void()>&);

std::string describePlan(const rt::Kernel& k, const rt::LaunchPlan& plan, std::optional<std::int64_t> rowLength) {
  const Function& fn = k.function();
  if (k.engine().backend() == rt::Backend::Gpu) {
    // What the latest launch of this plan ran (its choice may be a measured one), else the rules'.
    std::optional<rt::PlanChoice> choice;
    bool measured = false;
    if (const std::optional<rt::EntryLaunch> ran = k.lastLaunch(); ran && ran->plan == plan)
      choice = ran->choice, measured = ran->measured;
    else choice = rt::choosePlanEntry(fn, plan, k.engine().device(), rowLength);
    if (choice)
      return fn.planEntries[choice->entry].kernelName + " (" + std::string(name(fn.planEntries[choice->entry].plan)) +
             (measured ? ", measured choice" : "") + "), " + choice->plan.toString();
  }
  return "per-thread " + plan.toString();
}

void checkAndTime(Context& c, Row& row, const rt::Kernel& k, const rt::LaunchPlan& plan, const Launch& g,
                  const std::function<double(std::int64_t)>& want, const std::vector<std::int64_t>& sample,
                  std::int64_t total, DeviceBuffer<float>& out, const std::string& what) {
  row.generatedErr = maxAbsError(runOnce(c.engine, out, [&] { g(0); }), want, sample, total);
  logCheck(c, row, "generated", row.generatedErr);
  const auto t = timeInterleaved(c.engine, {g}, 1, c.timing);
  row.generatedMs = t[0].medianMs;
  row.note = (row.flops > 0 ? "TFLOP/s generated " + formatFixed(row.flops / (row.generatedMs * 1e9), 2) + "; " : "") +
             describePlan(k, plan) + "; " + std::to_string(sample.size()) + " sampled " + what + " checked";
  logTimings(c, row, t, {"generated " + describePlan(k, plan)});
}

Row benchCopy(Context& c, std::int64_t bytes) {
  Row row{"copy (ref_copy, ceiling)", std::to_string(bytes >> 20) + " MiB"};
  const std::int64_t n4 = bytes / 16;
  row.bytes = 2.0 * static_cast<double>(n4) * 16;
  DeviceBuffer<float> in(c.engine, static_cast<std::size_t>(n4) * 4), out(c.engine, static_cast<std::size_t>(n4) * 4);
  {
    const std::vector<float> data = uniformFloats(c.seed ^ 0xc0c0, static_cast<std::size_t>(n4) * 4, -1, 1);
    in.write(data);
  }
  std::uint64_t pin = addr(in), pout = addr(out);
  long long count = n4;
  const unsigned grid = std::min<unsigned>(blocksFor(n4, 256), std::max(1, c.engine.device().multiprocessors) * 32u);
  void* args[] = {&pin, &pout, &count};
  auto launch = [&](int) { c.refs.launch("ref_copy", Dim3{grid}, Dim3{256}, 0, args); };
  const auto t = timeInterleaved(c.engine, {launch}, 1, c.timing);
  row.handMs = t[0].medianMs;
  logTimings(c, row, t, {"ref_copy"});
  // The copy must be exact.
  std::vector<float> a(1 << 20), b(1 << 20);
  in.read(std::span<float>(a), static_cast<std::size_t>(n4) * 2);
  out.read(std::span<float>(b), static_cast<std::size_t>(n4) * 2);
  row.handErr = std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0 ? 0.0 : 1.0;
  return row;
}

Row benchSat(Context& c, std::int64_t n) {
  Row row{"RectTriangleOverlap (SAT)", std::to_string(n)};
  row.bytes = 44.0 * static_cast<double>(n);  // 10 floats in, 1 out per pair
  row.torchKey = "sat " + std::to_string(n);
  row.target95 = true;
  const std::uint64_t seed = c.seed ^ 0x5a7;
  std::vector<float> lo(2 * n), hi(2 * n), tri(6 * n);
  parallelFor(n, [&](std::int64_t b, std::int64_t e) {
    for (std::int64_t i = b; i < e; ++i) {
      const std::uint64_t r = static_cast<std::uint64_t>(i) * 16;
      for (int a = 0; a < 2; ++a) {
        lo[2 * i + a] = uniform(seed, r + a, 0.0f, 1.0f);
        hi[2 * i + a] = lo[2 * i + a] + uniform(seed, r + 2 + a, 0.05f, 0.3f);
      }
      // Triangles near their rectangle: about a fifth of the pairs overlap, so both outcomes (and
      // the early exit of the C++ function) are exercised.
      const float cx = lo[2 * i] + uniform(seed, r + 4, -0.3f, 0.5f),
                  cy = lo[2 * i + 1] + uniform(seed, r + 5, -0.3f, 0.5f);
      for (int v = 0; v < 3; ++v) {
        tri[6 * i + 2 * v] = cx + uniform(seed, r + 6 + 2 * v, -0.25f, 0.25f);
        tri[6 * i + 2 * v + 1] = cy + uniform(seed, r + 7 + 2 * v, -0.25f, 0.25f);
      }
    }
  });
  rt::Engine& e = c.engine;
  DeviceBuffer<float> dLo(e, lo), dHi(e, hi), dTri(e, tri), outGen(e, n), outRef(e, n);
  const rt::Kernel k = e.kernel(c.sat, "RectTriangleOverlap");
  const rt::LaunchPlan plan = LaunchPlanner::for1D(n, 256, e.device().limits);
  std::uint64_t pLo = addr(dLo), pHi = addr(dHi), pTri = addr(dTri), pOut = addr(outRef);
  int count = static_cast<int>(n);
  void* args[] = {&pLo, &pHi, &pTri, &pOut, &count};
  auto gen = [&](int) { k.launch(e, plan, dLo, dHi, dTri, outGen); };
  auto ref = [&](int) { c.refs.launch("ref_sat", Dim3{blocksFor(n, 256)}, Dim3{256}, 0, args); };

  // Check first: every element written, a sample against the header function compiled natively.
  const auto sample = sampleIndices(n, 1 << 20, seed ^ 1);
  auto want = [&](std::int64_t i) { return double(RectTriangleOverlap(lo.data(), hi.data(), tri.data(), int(i))); };
  const std::vector<float> g = runOnce(e, outGen, [&] { gen(0); });
  const std::vector<float> h = runOnce(e, outRef, [&] { ref(0); });
  row.generatedErr = maxAbsError(g, want, sample, n);
  row.handErr = maxAbsError(h, want, sample, n);
  std::int64_t genMiss = 0, handMiss = 0, hits = 0;
  for (std::int64_t i : sample) {
    const float w = static_cast<float>(want(i));
    genMiss += g[i] != w;
    handMiss += h[i] != w;
    hits += w == 1.0f;
  }
  // 0/1 results: a pair within rounding of the decision boundary may flip when the GPU contracts
  // a*b+c into an FMA and the native reference does not. Allow a few in a million.
  const double allowed = 1e-5 * static_cast<double>(sample.size());
  row.tolerance = (genMiss <= allowed && handMiss <= allowed) ? 1.0 : 0.0;
  row.note = "mismatches vs native in " + std::to_string(sample.size()) + " sampled pairs: generated " +
             std::to_string(genMiss) + ", hand-written " + std::to_string(handMiss) + "; overlap rate " +
             formatFixed(100.0 * hits / sample.size(), 1) + "%";
  logCheck(c, row, "generated", row.generatedErr);
  logCheck(c, row, "ref_sat", row.handErr);

  const auto t = timeInterleaved(e, {gen, ref}, 1, c.timing);
  row.generatedMs = t[0].medianMs;
  row.handMs = t[1].medianMs;
  logTimings(c, row, t, {"generated " + plan.toString(), "ref_sat"});
  return row;
}

Row benchMaskedBroadcast(Context& c, int rows, int cols) {
  Row row{"MaskedBroadcastRow0", std::to_string(rows) + "x" + std::to_string(cols)};
  if (cols % 4) throw std::runtime_error("the hand-written kernel needs cols % 4 == 0");
  const std::int64_t cells = static_cast<std::int64_t>(rows) * cols;
  row.bytes = 8.0 * static_cast<double>(cells) + cols;  // x read, out written, the mask once
  row.torchKey = "masked_broadcast " + row.size;
  row.target95 = true;
  row.tolerance = 0;  // a select: exact
  rt::Engine& e = c.engine;
  const int sets = setsFor(8.0 * static_cast<double>(cells));
  const std::uint64_t seed = c.seed ^ 0xb0a;
  std::vector<unsigned char> maskBytes(cols);
  for (int j = 0; j < cols; ++j) maskBytes[j] = (mix(seed, j) & 1) ? 1 : 0;
  DeviceBuffer<bool> mask(e, cols);
  mask.writeBytes(maskBytes.data(), maskBytes.size(), 0);
  std::vector<DeviceBuffer<float>> xs = floatBuffers(e, sets, cells), gens = floatBuffers(e, sets, cells),
                                   refs = floatBuffers(e, sets, cells);
  std::vector<float> x0;
  for (int s = 0; s < sets; ++s) {
    std::vector<float> x = uniformFloats(seed + s + 1, cells, -1, 1);
    xs[s].write(x);
    if (s == 0) x0 = std::move(x);
  }
  const rt::Kernel k = e.kernel(c.masked, "MaskedBroadcastRow0");
  const rt::LaunchPlan plan = LaunchPlanner::for2D(rows, cols, 32, 8, e.device().limits);
  std::vector<std::uint64_t> px(sets), pout(sets);
  for (int s = 0; s < sets; ++s) px[s] = addr(xs[s]), pout[s] = addr(refs[s]);
  std::uint64_t pmask = addr(mask);
  int nRows = rows, cols4 = cols / 4;
  auto gen = [&](int s) { k.launch(e, plan, xs[s], mask, cols, gens[s]); };
  auto ref = [&](int s) {
    void* args[] = {&px[s], &pmask, &pout[s], &nRows, &cols4};
    c.refs.launch("ref_masked_broadcast", Dim3{blocksFor(cells / 4, 256)}, Dim3{256}, 0, args);
  };
  std::unique_ptr<bool[]> maskHost(new bool[cols]);
  for (int j = 0; j < cols; ++j) maskHost[j] = maskBytes[j] != 0;
  auto want = [&](std::int64_t idx) {
    return double(MaskedBroadcastRow0(x0.data(), maskHost.get(), cols, int(idx / cols), int(idx % cols)));
  };
  row.generatedErr = maxAbsError(runOnce(e, gens[0], [&] { gen(0); }), want, {}, cells);
  row.handErr = maxAbsError(runOnce(e, refs[0], [&] { ref(0); }), want, {}, cells);
  logCheck(c, row, "generated", row.generatedErr);
  logCheck(c, row, "ref_masked_broadcast", row.handErr);
  const auto t = timeInterleaved(e, {gen, ref}, sets, c.timing);
  row.generatedMs = t[0].medianMs;
  row.handMs = t[1].medianMs;
  row.note = std::to_string(sets) + " input sets rotated; every cell checked";
  logTimings(c, row, t, {"generated " + plan.toString(), "ref_masked_broadcast"});
  return row;
}

Row benchPearsonClamp(Context& c, std::int64_t n) {
  Row row{"PearsonClamp (element-wise)", std::to_string(n)};
  if (n % 4) throw std::runtime_error("the hand-written kernel needs n % 4 == 0");
  row.bytes = 12.0 * static_cast<double>(n);
  row.torchKey = "pearson_clamp " + std::to_string(n);
  row.target95 = true;
  row.tolerance = 0;  // IEEE division, comparisons and fmin/fmax: exact
  rt::Engine& e = c.engine;
  const std::uint64_t seed = c.seed ^ 0xc1a;
  std::vector<float> cov = uniformFloats(seed, n, -2, 2), denom = uniformFloats(seed + 1, n, 0, 1);
  for (std::int64_t k = 0; k < n; k += 97) denom[k] = (k / 97) % 2 ? 0.0f : 1e-13f;  // the guarded branch
  DeviceBuffer<float> dCov(e, cov), dDen(e, denom), outGen(e, n), outRef(e, n);
  const rt::Kernel k = e.kernel(c.pearson, "PearsonClamp");
  const rt::LaunchPlan plan = LaunchPlanner::for1D(n, 256, e.device().limits);
  std::uint64_t pc = addr(dCov), pd = addr(dDen), po = addr(outRef);
  long long n4 = n / 4;
  void* args[] = {&pc, &pd, &po, &n4};
  auto gen = [&](int) { k.launch(e, plan, dCov, dDen, outGen); };
  auto ref = [&](int) { c.refs.launch("ref_pearson_clamp", Dim3{blocksFor(n4, 256)}, Dim3{256}, 0, args); };
  auto want = [&](std::int64_t i) { return double(PearsonClamp(cov[i], denom[i])); };
  row.generatedErr = maxAbsError(runOnce(e, outGen, [&] { gen(0); }), want, {}, n);
  row.handErr = maxAbsError(runOnce(e, outRef, [&] { ref(0); }), want, {}, n);
  logCheck(c, row, "generated", row.generatedErr);
  logCheck(c, row, "ref_pearson_clamp", row.handErr);
  const auto t = timeInterleaved(e, {gen, ref}, 1, c.timing);
  row.generatedMs = t[0].medianMs;
  row.handMs = t[1].medianMs;
  row.note = "every element checked";
  logTimings(c, row, t, {"generated " + plan.toString(), "ref_pearson_clamp"});
  return row;
}

std::vector<Row> benchPearson(Context& c, int n) {
  if (n % 64) throw std::runtime_error("the hand-written Gram kernel needs n % 64 == 0");
  rt::Engine& e = c.engine;
  const std::string size = std::to_string(n);
  const std::size_t cells = static_cast<std::size_t>(n) * n;
  const double matrixBytes = 4.0 * static_cast<double>(cells);
  const std::uint64_t seed = c.seed ^ (0x9ea5 + n);
  std::vector<Row> rows;

  // Input matrices, rotated: set 0 is the one checked.
  const int xSets = setsFor(matrixBytes);
  std::vector<DeviceBuffer<float>> xs = floatBuffers(e, xSets, cells);
  std::vector<float> x0;
  for (int s = 0; s < xSets; ++s) {
    std::vector<float> x = uniformFloats(seed + s, cells, -1, 1);
    xs[s].write(x);
    if (s == 0) x0 = std::move(x);
  }
  std::vector<std::uint64_t> px(xSets);
  for (int s = 0; s < xSets; ++s) px[s] = addr(xs[s]);
  const rt::LaunchPlan rows1D = LaunchPlanner::for1D(n, 256, e.device().limits);
  const unsigned warpBlocks = blocksFor(static_cast<std::int64_t>(n) * 32, 256);
  int nInt = n;
  std::uint64_t null = 0;

  // ---- RowSum and RowSumSq: 1-D over rows ----
  std::vector<float> sum0, sumSq0;  // the generated results of set 0: inputs of the cell kernels
  for (int form = 0; form < 4; ++form) {
    const bool squares = form % 2 == 1, reassociated = form >= 2;  // the loop's order, then a warp per row
    const char* name = squares ? "RowSumSq" : "RowSum";
    Row row{std::string(name) + (reassociated ? " (reassociating)" : ""), size};
    row.bytes = matrixBytes + 4.0 * n;
    row.torchKey = std::string(squares ? "rowsumsq " : "rowsum ") + size;
    row.tolerance = 1e-4 * n;  // float sums of n terms of magnitude <= 1, in different orders
    try {
      const rt::Kernel k = e.kernel(reassociated ? c.pearsonReassociated : c.pearson, name);
      std::vector<DeviceBuffer<float>> gens = floatBuffers(e, xSets, n), refs = floatBuffers(e, xSets, n);
      std::vector<std::uint64_t> pr(xSets);
      for (int s = 0; s < xSets; ++s) pr[s] = addr(refs[s]);
      auto gen = [&](int s) { k.launch(e, rows1D, xs[s], n, gens[s]); };
      auto ref = [&](int s) {
        void* args[] = {&px[s], &nInt, &nInt, squares ? &null : &pr[s], squares ? &pr[s] : &null};
        c.refs.launch("ref_row_sum", Dim3{warpBlocks}, Dim3{256}, 0, args);
      };
      auto want = [&](std::int64_t i) {
        return double(squares ? RowSumSq(x0.data(), n, int(i)) : RowSum(x0.data(), n, int(i)));
      };
      std::vector<float> g = runOnce(e, gens[0], [&] { gen(0); });
      row.generatedErr = maxAbsError(g, want, {}, n);
      row.handErr = maxAbsError(runOnce(e, refs[0], [&] { ref(0); }), want, {}, n);
      if (!reassociated) (squares ? sumSq0 : sum0) = std::move(g);
      logCheck(c, row, "generated", row.generatedErr);
      logCheck(c, row, "ref_row_sum", row.handErr);
      const auto t = timeInterleaved(e, {gen, ref}, xSets, c.timing);
      row.generatedMs = t[0].medianMs;
      row.handMs = t[1].medianMs;
      row.note = describePlan(k, rows1D, n) + " vs one warp per row, float4 loads (ref_row_sum)";
      logTimings(c, row, t, {"generated " + describePlan(k, rows1D, n), "ref_row_sum"});
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // ---- GramDot: 2-D over row pairs ----
  std::vector<float> dot0;
  {
    Row row{"GramDot", size};
    row.bytes = 2 * matrixBytes;
    row.flops = 2.0 * n * static_cast<double>(cells);
    row.torchKey = "gram " + size;
    row.tolerance = 1e-4 * n;
    try {
      const rt::Kernel k = e.kernel(c.pearson, "GramDot");
      const rt::LaunchPlan plan = LaunchPlanner::for2D(n, n, 16, 16, e.device().limits);
      std::vector<DeviceBuffer<float>> gens = floatBuffers(e, xSets, cells), refs = floatBuffers(e, xSets, cells);
      std::vector<std::uint64_t> pr(xSets);
      for (int s = 0; s < xSets; ++s) pr[s] = addr(refs[s]);
      auto gen = [&](int s) { k.launch(e, plan, xs[s], n, gens[s]); };
      auto ref = [&](int s) {
        void* args[] = {&px[s], &nInt, &nInt, &pr[s]};
        c.refs.launch("ref_gram", Dim3{unsigned(n / 64), unsigned(n / 64)}, Dim3{256}, 0, args);
      };
      const auto sample = sampleIndices(static_cast<std::int64_t>(cells), 1 << 14, seed ^ 7);
      auto want = [&](std::int64_t idx) { return double(GramDot(x0.data(), n, int(idx / n), int(idx % n))); };
      std::vector<float> g = runOnce(e, gens[0], [&] { gen(0); });
      row.generatedErr = maxAbsError(g, want, sample, static_cast<std::int64_t>(cells));
      row.handErr = maxAbsError(runOnce(e, refs[0], [&] { ref(0); }), want, sample, static_cast<std::int64_t>(cells));
      dot0 = std::move(g);
      logCheck(c, row, "generated", row.generatedErr);
      logCheck(c, row, "ref_gram", row.handErr);
      const auto t = timeInterleaved(e, {gen, ref}, xSets, c.timing);
      row.generatedMs = t[0].medianMs;
      row.handMs = t[1].medianMs;
      row.note = "TFLOP/s generated " + formatFixed(row.flops / (row.generatedMs * 1e9), 2) + ", hand-written " +
                 formatFixed(row.flops / (row.handMs * 1e9), 2) + "; " + describePlan(k, plan) + "; " +
                 std::to_string(sample.size()) + " sampled cells checked";
      logTimings(c, row, t, {"generated " + describePlan(k, plan), "ref_gram"});
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // ---- CorrelationCell and DistanceCell: 2-D over the Gram matrix ----
  const bool haveInputs = dot0.size() == cells && sum0.size() == std::size_t(n) && sumSq0.size() == std::size_t(n);
  const int cellSets = setsFor(2 * matrixBytes);
  for (int distance = 0; distance < 2; ++distance) {
    const char* name = distance ? "DistanceCell" : "CorrelationCell";
    Row row{name, size};
    row.bytes = 2 * matrixBytes + 4.0 * n * (distance ? 1 : 2);
    row.tolerance = distance ? 1e-5 * 4 * n : 1e-4;  // distances grow like sqrt(n); correlations lie in [-1, 1]
    try {
      if (!haveInputs) throw std::runtime_error("skipped: the row sums or the Gram matrix were not computed");
      const rt::Kernel k = e.kernel(c.pearson, name);
      const rt::LaunchPlan plan = LaunchPlanner::for2D(n, n, 32, 8, e.device().limits);
      std::vector<DeviceBuffer<float>> dots = floatBuffers(e, cellSets, cells), sums = floatBuffers(e, cellSets, n),
                                       sumSqs = floatBuffers(e, cellSets, n), gens = floatBuffers(e, cellSets, cells),
                                       refs = floatBuffers(e, cellSets, cells);
      std::vector<std::uint64_t> pDot(cellSets), pSum(cellSets), pSq(cellSets), pr(cellSets);
      // The expert kernel's per-row statistics (mean, standard deviation and its inverse).
      DeviceBuffer<float> mean(e, n), sd(e, n), invSd(e, n);
      std::uint64_t pMean = addr(mean), pSd = addr(sd), pInv = addr(invSd);
      // Four cells per thread, a grid-stride loop over all quads.
      const unsigned quadBlocks = std::min(blocksFor(static_cast<std::int64_t>(n) * ((n + 3) / 4), 256), 132u * 16);
      for (int s = 0; s < cellSets; ++s) {
        dots[s].write(dot0);
        sums[s].write(sum0);
        sumSqs[s].write(sumSq0);
        pDot[s] = addr(dots[s]), pSum[s] = addr(sums[s]), pSq[s] = addr(sumSqs[s]), pr[s] = addr(refs[s]);
      }
      Launch gen, ref;
      if (distance) {
        gen = [&](int s) { k.launch(e, plan, dots[s], sumSqs[s], n, gens[s]); };
        ref = [&](int s) {
          void* args[] = {&pDot[s], &pSq[s], &nInt, &pr[s]};
          c.refs.launch("ref_distance", Dim3{quadBlocks}, Dim3{256}, 0, args);
        };
      } else {
        gen = [&](int s) { k.launch(e, plan, dots[s], sums[s], sumSqs[s], n, n, gens[s]); };
        ref = [&](int s) {  // both kernels are timed: the statistics are part of the work
          void* stats[] = {&pSum[s], &pSq[s], &nInt, &nInt, &pMean, &pSd, &pInv};
          c.refs.launch("ref_row_stats", Dim3{blocksFor(n, 256)}, Dim3{256}, 0, stats);
          void* args[] = {&pDot[s], &pMean, &pSd, &pInv, &nInt, &nInt, &pr[s]};
          c.refs.launch("ref_correlation", Dim3{quadBlocks}, Dim3{256}, 0, args);
        };
      }
      auto want = [&](std::int64_t idx) {
        const int i = int(idx / n), j = int(idx % n);
        return double(distance ? DistanceCell(dot0.data(), sumSq0.data(), n, i, j)
                               : CorrelationCell(dot0.data(), sum0.data(), sumSq0.data(), n, n, i, j));
      };
      row.generatedErr = maxAbsError(runOnce(e, gens[0], [&] { gen(0); }), want, {}, static_cast<std::int64_t>(cells));
      row.handErr = maxAbsError(runOnce(e, refs[0], [&] { ref(0); }), want, {}, static_cast<std::int64_t>(cells));
      logCheck(c, row, "generated", row.generatedErr);
      logCheck(c, row, distance ? "ref_distance" : "ref_correlation", row.handErr);
      const auto t = timeInterleaved(e, {gen, ref}, cellSets, c.timing);
      row.generatedMs = t[0].medianMs;
      row.handMs = t[1].medianMs;
      row.note = "inputs: the generated Gram matrix and row sums; every cell checked";
      logTimings(c, row, t, {"generated " + plan.toString(), distance ? "ref_distance" : "ref_correlation"});
    } catch (const std::exception& ex) {
      row.error = ex.what();
    }
    rows.push_back(std::move(row));
  }

  // ---- The pipelines, as sums of the kernels' medians (what torch.corrcoef and cdist do) ----
  auto find = [&](const char* name) -> const Row* {
    for (const Row& r : rows)
      if (r.kernel == name && r.error.empty()) return &r;
    return nullptr;
  };
  auto pipeline = [&](const char* name, const char* torch, std::vector<const char*> parts) {
    Row row{name, size};
    row.torchKey = std::string(torch) + " " + size;
    row.generatedMs = row.handMs = 0;
    std::string what;
    for (const char* p : parts) {
      const Row* r = find(p);
      if (!r) {
        row.error = std::string("needs ") + p;
        break;
      }
      row.generatedMs += r->generatedMs;
      row.handMs += r->handMs;
      what += (what.empty() ? "" : " + ") + std::string(p);
    }
    if (row.error.empty()) row.note = "sum of the medians of " + what;
    rows.push_back(std::move(row));
  };
  pipeline("Pearson pipeline", "corrcoef", {"RowSum", "RowSumSq", "GramDot", "CorrelationCell"});
  pipeline("distance pipeline", "cdist", {"RowSumSq", "GramDot", "DistanceCell"});
  return rows;
}

}  // namespace culift::bench
