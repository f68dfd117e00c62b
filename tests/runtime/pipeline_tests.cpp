// Pipelines (docs/runtime.md#pipelines): a row mean, a row variance from it, a normalize from both,
// and a reassociating row total, recorded once and run many times, give the bits of the same
// launches made one by one with Kernel::launch, on every run; a buffer's contents changed between
// runs change the outputs (buffers are referenced); a wrong argument is an ArgumentError at add()
// naming the launch and the kernel. The CPU backend runs them everywhere; the [gpu] case runs the
// eager first run, the captured second and the replayed third on a device, with rows few and long
// enough for the split-row entry and its scratch, and prints "skipped: no GPU" without one.
// Adjacent launches of a row total and a row sum of squares over one array run as one launch of
// their fused kernel, with each kernel's bits; launches that differ, are apart, or share a result
// buffer run one by one. A tiled product whose edge kernel may overlap it, read at once by the next
// launch, gives the host's bits eager, captured and replayed.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "gpu_support.hpp"

namespace culift::rttest {
namespace {

using rt::DeviceBuffer;
using rt::Kernel;
using rt::LaunchPlan;
using rt::LaunchPlanner;
using rt::Pipeline;

constexpr const char* kSource = R"(#include <cmath>
#include <culift/annotate.hpp>

CULIFT_KERNEL float RowMean(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k];
  return s / (float)cols;
}

CULIFT_KERNEL float RowVariance(const float* x, const float* mean, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) {
    const float d = x[i * cols + k] - mean[i];
    s += d * d;
  }
  return s / (float)cols;
}

CULIFT_KERNEL float Normalize(const float* x, const float* mean, const float* var, int cols, int i, int j) {
  return (x[i * cols + j] - mean[i]) / std::sqrt(var[i] + 1e-5f);
}

CULIFT_KERNEL_REASSOCIATE float RowTotal(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k];
  return s;
}

CULIFT_KERNEL float MatMul(const float* a, const float* b, int nk, int nj, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < nk; ++k) s += a[i * nk + k] * b[k * nj + j];
  return s;
}

CULIFT_KERNEL_REASSOCIATE float RowSumSq(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) {
    const float v = x[i * cols + k];
    s += v * v;
  }
  return s;
}
)";

std::shared_ptr<const Module> pipelineKernels() {
  static const std::shared_ptr<const Module> module = [] {
    TranslateOptions options;
    const std::string include = sourceFile("include");
    if (!include.empty()) options.compilerArgs = {"-I" + include};
    TranslateResult r = translateSource(kSource, "pipeline_kernels.cpp", options);
    INFO(r.formatDiagnostics());
    REQUIRE(r.ok());
    return std::shared_ptr<const Module>(r.module);
  }();
  return module;
}

std::vector<float> randomFloats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-2.0f, 2.0f);
  std::vector<float> v(n);
  for (float& f : v) f = d(rng);
  return v;
}

struct Outputs {
  std::vector<float> mean, variance, normalized, totals;
};

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

void requireSameBits(const Outputs& got, const Outputs& expected) {
  REQUIRE(sameBits(got.mean, expected.mean));
  REQUIRE(sameBits(got.variance, expected.variance));
  REQUIRE(sameBits(got.normalized, expected.normalized));
  REQUIRE(sameBits(got.totals, expected.totals));
}

// The four launches over rows x cols (the normalize chain) and longRows x longCols (the row total),
// with their buffers.
struct Chain {
  Chain(rt::Engine& e, int rows, int cols, int longRows, int longCols)
      : engine(e),
        rows(rows),
        cols(cols),
        longRows(longRows),
        longCols(longCols),
        rowMean(e.kernel(pipelineKernels(), "RowMean")),
        rowVariance(e.kernel(pipelineKernels(), "RowVariance")),
        normalize(e.kernel(pipelineKernels(), "Normalize")),
        rowTotal(e.kernel(pipelineKernels(), "RowTotal")),
        rowsPlan(LaunchPlanner::for1D(rows)),
        gridPlan(LaunchPlanner::for2D(rows, cols)),
        longPlan(LaunchPlanner::for1D(longRows)),
        x(e, randomFloats(static_cast<std::size_t>(rows) * cols, 1)),
        longX(e, randomFloats(static_cast<std::size_t>(longRows) * longCols, 2)),
        mean(e, rows),
        variance(e, rows),
        normalized(e, static_cast<std::size_t>(rows) * cols),
        totals(e, longRows) {}

  void addTo(Pipeline& p) {
    p.add(rowMean, rowsPlan, x, cols, mean)
        .add(rowVariance, rowsPlan, x, mean, cols, variance)
        .add(normalize, gridPlan, x, mean, variance, cols, normalized)
        .add(rowTotal, longPlan, longX, longCols, totals);
  }

  // The same launches one by one with Kernel::launch, into buffers of their own.
  Outputs oneByOne() {
    DeviceBuffer<float> m(engine, rows), v(engine, rows), y(engine, normalized.size()), t(engine, longRows);
    rowMean.launch(engine, rowsPlan, x, cols, m);
    rowVariance.launch(engine, rowsPlan, x, m, cols, v);
    normalize.launch(engine, gridPlan, x, m, v, cols, y);
    rowTotal.launch(engine, longPlan, longX, longCols, t);
    engine.synchronize();
    return {m.read(), v.read(), y.read(), t.read()};
  }

  Outputs outputs() const { return {mean.read(), variance.read(), normalized.read(), totals.read()}; }

  // New contents for both inputs.
  void refill(unsigned seed) {
    x.write(randomFloats(x.size(), seed));
    longX.write(randomFloats(longX.size(), seed + 1));
  }

  rt::Engine& engine;
  int rows, cols, longRows, longCols;
  Kernel rowMean, rowVariance, normalize, rowTotal;
  LaunchPlan rowsPlan, gridPlan, longPlan;
  DeviceBuffer<float> x, longX;
  DeviceBuffer<float> mean, variance, normalized, totals;
};

std::string addError(const std::function<void()>& add) {
  try {
    add();
  } catch (const rt::ArgumentError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST_CASE("a pipeline on the CPU backend gives the bits of its launches one by one, run after run", "[pipeline]") {
  auto cpu = rt::Engine::createCpu();
  Chain chain(*cpu, 37, 300, 4, 5000);
  Pipeline p(*cpu);
  chain.addTo(p);
  REQUIRE(p.size() == 4);

  const Outputs expected = chain.oneByOne();
  for (int run = 1; run <= 3; ++run) {
    INFO("run " << run);
    chain.mean.zero();  // the run writes every output again
    chain.totals.zero();
    p.run(*cpu);
    cpu->synchronize();
    requireSameBits(chain.outputs(), expected);
    CHECK_FALSE(p.captured());  // no graphs on the CPU backend
  }

  // The pipeline reads the buffers' contents of the time it runs.
  chain.refill(7);
  const Outputs refilled = chain.oneByOne();
  REQUIRE_FALSE(sameBits(refilled.normalized, expected.normalized));
  REQUIRE_FALSE(sameBits(refilled.totals, expected.totals));
  rt::Stream stream = cpu->createStream();
  p.run(stream);
  stream.synchronize();
  requireSameBits(chain.outputs(), refilled);
}

TEST_CASE("a wrong argument to Pipeline::add is an ArgumentError naming the launch and the kernel", "[pipeline]") {
  auto cpu = rt::Engine::createCpu();
  Chain chain(*cpu, 8, 16, 2, 32);
  Pipeline p(*cpu);
  p.add(chain.rowMean, chain.rowsPlan, chain.x, chain.cols, chain.mean);

  std::string e = addError([&] { p.add(chain.rowVariance, chain.rowsPlan, chain.x, chain.cols, chain.variance); });
  INFO(e);
  CHECK(e.find("launch 2 of the pipeline: 'RowVariance' takes 4 launch arguments") == 0);

  DeviceBuffer<double> doubles(*cpu, 8);
  e = addError([&] { p.add(chain.rowVariance, chain.rowsPlan, chain.x, doubles, chain.cols, chain.variance); });
  INFO(e);
  CHECK(e.find("launch 2 of the pipeline: RowVariance: argument 2") == 0);

  e = addError([&] { p.add(chain.rowMean, chain.rowsPlan, chain.x, 16.0, chain.mean); });  // a double for an int
  INFO(e);
  CHECK(e.find("launch 2 of the pipeline: RowMean: argument 2") == 0);

  auto other = rt::Engine::createCpu();
  const Kernel elsewhere = other->kernel(pipelineKernels(), "RowMean");
  e = addError([&] { p.add(elsewhere, chain.rowsPlan, chain.x, chain.cols, chain.mean); });
  INFO(e);
  CHECK(e.find("launch 2 of the pipeline: RowMean: loaded on another engine") == 0);

  // Rejected launches are not added; the pipeline still runs on its engine only.
  CHECK(p.size() == 1);
  CHECK_THROWS_AS(p.run(*other), rt::ArgumentError);
  p.run(*cpu);
  CHECK(chain.mean.read() == chain.oneByOne().mean);
}

// A row total and a row sum of squares of one array: fused into one launch where the pipeline may.
struct Statistics {
  Statistics(rt::Engine& e, int rows, int cols)
      : engine(e),
        cols(cols),
        total(e.kernel(pipelineKernels(), "RowTotal")),
        sumSq(e.kernel(pipelineKernels(), "RowSumSq")),
        plan(LaunchPlanner::for1D(rows)),
        x(e, randomFloats(static_cast<std::size_t>(rows) * cols, 3)),
        other(e, randomFloats(x.size(), 4)),
        t(e, rows),
        q(e, rows) {
    DeviceBuffer<float> t1(e, t.size()), q1(e, q.size());
    total.launch(e, plan, x, cols, t1);
    sumSq.launch(e, plan, x, cols, q1);
    e.synchronize();
    expectedTotal = t1.read();
    expectedSumSq = q1.read();
  }

  // Runs `p` `runs` times, each into zeroed results, and requires each kernel's own bits.
  void requireOwnBits(Pipeline& p, int runs) {
    for (int run = 1; run <= runs; ++run) {
      INFO("run " << run);
      t.zero();
      q.zero();
      p.run(engine);
      engine.synchronize();
      REQUIRE(sameBits(t.read(), expectedTotal));
      REQUIRE(sameBits(q.read(), expectedSumSq));
    }
  }

  rt::Engine& engine;
  int cols;
  Kernel total, sumSq;
  LaunchPlan plan;
  DeviceBuffer<float> x, other, t, q;
  std::vector<float> expectedTotal, expectedSumSq;
};

const std::vector<std::string> kFused{"RowTotal_RowSumSq_fused"};

TEST_CASE("a pipeline runs adjacent launches reducing the same rows as one, with each kernel's bits",
          "[pipeline][fused]") {
  auto cpu = rt::Engine::createCpu();
  Statistics st(*cpu, 5, 9000);
  REQUIRE(pipelineKernels()->find("RowTotal_RowSumSq_fused"));

  Pipeline p(*cpu);
  p.add(st.total, st.plan, st.x, st.cols, st.t).add(st.sumSq, st.plan, st.x, st.cols, st.q);
  CHECK(p.size() == 2);
  CHECK(p.launchesPerRun() == 1);
  CHECK(p.fusedKernels() == kFused);
  st.requireOwnBits(p, 2);

  SECTION("one element, empty rows") {
    for (const auto& [rows, cols] : {std::pair{1, 1}, std::pair{3, 0}}) {
      INFO(rows << " rows of " << cols);
      Statistics small(*cpu, rows, cols);
      Pipeline q(*cpu);
      q.add(small.total, small.plan, small.x, small.cols, small.t)
          .add(small.sumSq, small.plan, small.x, small.cols, small.q);
      CHECK(q.fusedKernels() == kFused);
      small.requireOwnBits(q, 1);
    }
  }
  SECTION("in either order") {
    Pipeline r(*cpu);
    r.add(st.sumSq, st.plan, st.x, st.cols, st.q).add(st.total, st.plan, st.x, st.cols, st.t);
    CHECK(r.fusedKernels() == kFused);
    st.requireOwnBits(r, 1);
  }
  SECTION("not where the launches differ, are apart, or the user said no") {
    Pipeline off(*cpu, rt::PipelineOptions{.fuse = false});
    off.add(st.total, st.plan, st.x, st.cols, st.t).add(st.sumSq, st.plan, st.x, st.cols, st.q);
    CHECK(off.launchesPerRun() == 2);
    CHECK(off.fusedKernels().empty());
    st.requireOwnBits(off, 1);

    Pipeline arrays(*cpu);  // another array
    arrays.add(st.total, st.plan, st.x, st.cols, st.t).add(st.sumSq, st.plan, st.other, st.cols, st.q);
    CHECK(arrays.launchesPerRun() == 2);
    Pipeline scalars(*cpu);  // shorter rows
    scalars.add(st.total, st.plan, st.x, st.cols, st.t).add(st.sumSq, st.plan, st.x, st.cols - 1, st.q);
    CHECK(scalars.launchesPerRun() == 2);
    Pipeline plans(*cpu);  // fewer rows
    plans.add(st.total, st.plan, st.x, st.cols, st.t).add(st.sumSq, LaunchPlanner::for1D(2), st.x, st.cols, st.q);
    CHECK(plans.launchesPerRun() == 2);
    Pipeline same(*cpu);  // one result buffer: the second launch's values stay, as launched one by one
    same.add(st.total, st.plan, st.x, st.cols, st.t).add(st.sumSq, st.plan, st.x, st.cols, st.t);
    CHECK(same.launchesPerRun() == 2);
    same.run(*cpu);
    cpu->synchronize();
    CHECK(sameBits(st.t.read(), st.expectedSumSq));
    Pipeline apart(*cpu);  // another launch between them
    apart.add(st.total, st.plan, st.x, st.cols, st.t)
        .add(st.total, st.plan, st.other, st.cols, st.q)
        .add(st.sumSq, st.plan, st.x, st.cols, st.q);
    CHECK(apart.launchesPerRun() == 3);
    // Three launches of the pair: the first two fuse, the third runs alone.
    Pipeline three(*cpu);
    three.add(st.total, st.plan, st.x, st.cols, st.t)
        .add(st.sumSq, st.plan, st.x, st.cols, st.q)
        .add(st.sumSq, st.plan, st.x, st.cols, st.q);
    CHECK(three.launchesPerRun() == 2);
    st.requireOwnBits(three, 1);
  }
}

TEST_CASE("fused launches on the GPU: split rows and a warp per row, eager and captured, with each kernel's bits",
          "[gpu][pipeline][fused]") {
  auto gpu = gpuOrSkip(rt::MathMode::Strict);
  if (!gpu) return;
  for (const auto& [rows, cols, mapping] :
       {std::tuple{4, 1000000, BlockMapping::SplitRows}, std::tuple{3000, 4099, BlockMapping::RowBlocks}}) {
    INFO(rows << " rows of " << cols);
    Statistics st(*gpu, rows, cols);
    const Function* fused = pipelineKernels()->find("RowTotal_RowSumSq_fused");
    REQUIRE(fused);
    const std::optional<rt::PlanChoice> choice = rt::choosePlanEntry(*fused, st.plan, gpu->device(),
                                                                     std::int64_t{cols});
    REQUIRE(choice);
    CHECK(fused->planEntries.at(choice->entry).blockMapping() == mapping);
    Pipeline p(*gpu);
    p.add(st.total, st.plan, st.x, st.cols, st.t).add(st.sumSq, st.plan, st.x, st.cols, st.q);
    REQUIRE(p.fusedKernels() == kFused);
    st.requireOwnBits(p, 3);  // eager, captured, replayed
    INFO(p.whyNotCaptured());
    CHECK(p.captured());
  }
}

TEST_CASE("a tiled product and its edge kernel, then a launch reading it: the host's bits, eager and captured",
          "[gpu][pipeline]") {
  auto gpu = gpuOrSkip(rt::MathMode::Strict);
  if (!gpu) return;
  // Partial tiles both ways: the entry's kernel takes the whole blocks, its edge kernel (which may
  // start beside the entry's last blocks) the others; the row mean reads every output at once after.
  const int rows = 300, nk = 96, cols = 260;
  const Kernel matMul = gpu->kernel(pipelineKernels(), "MatMul"), rowMean = gpu->kernel(pipelineKernels(), "RowMean");
  const LaunchPlan productPlan = LaunchPlanner::for2D(rows, cols), rowsPlan = LaunchPlanner::for1D(rows);
  {
    const Function* fn = pipelineKernels()->find("MatMul");
    REQUIRE(fn);
    const std::optional<rt::PlanChoice> choice = rt::choosePlanEntry(*fn, productPlan, gpu->device());
    REQUIRE(choice);
    REQUIRE(fn->planEntries.at(choice->entry).edgeKernel);
  }
  const std::vector<float> a = randomFloats(static_cast<std::size_t>(rows) * nk, 5),
                           b = randomFloats(static_cast<std::size_t>(nk) * cols, 6);
  std::vector<float> product(static_cast<std::size_t>(rows) * cols), means(rows);
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      float s = 0.0f;
      for (int k = 0; k < nk; ++k) s += a[i * nk + k] * b[k * cols + j];
      product[static_cast<std::size_t>(i) * cols + j] = s;
    }
    float s = 0.0f;
    for (int k = 0; k < cols; ++k) s += product[static_cast<std::size_t>(i) * cols + k];
    means[i] = s / (float)cols;
  }
  DeviceBuffer<float> da(*gpu, a), db(*gpu, b), dProduct(*gpu, product.size()), dMeans(*gpu, rows);
  Pipeline p(*gpu);
  p.add(matMul, productPlan, da, db, nk, cols, dProduct).add(rowMean, rowsPlan, dProduct, cols, dMeans);
  for (int run = 1; run <= 3; ++run) {
    INFO("run " << run << (run == 1 ? " (eager)" : run == 2 ? " (captured)" : " (replayed)"));
    dProduct.zero();
    dMeans.zero();
    p.run(*gpu);
    gpu->synchronize();
    REQUIRE(sameBits(dProduct.read(), product));
    REQUIRE(sameBits(dMeans.read(), means));
    INFO(p.whyNotCaptured());
    CHECK(p.captured() == (run >= 2));
  }
}

TEST_CASE("a pipeline on the GPU: the eager, captured and replayed runs give the launches' bits", "[gpu][pipeline]") {
  auto gpu = gpuOrSkip(rt::MathMode::Strict);
  if (!gpu) return;
  // 4 rows of 1,000,000: the row total takes the split-row entry, with its scratch.
  Chain chain(*gpu, 300, 1000, 4, 1000000);
  {
    const Function* fn = pipelineKernels()->find("RowTotal");
    REQUIRE(fn);
    const std::optional<rt::PlanChoice> choice = rt::choosePlanEntry(*fn, chain.longPlan, gpu->device(),
                                                                     std::int64_t{chain.longCols});
    REQUIRE(choice);
    REQUIRE(fn->planEntries.at(choice->entry).blockMapping() == BlockMapping::SplitRows);
  }
  Pipeline p(*gpu);
  chain.addTo(p);

  const Outputs expected = chain.oneByOne();
  rt::Stream stream = gpu->createStream();
  for (int run = 1; run <= 4; ++run) {
    INFO("run " << run << (run == 1 ? " (eager)" : run == 2 ? " (captured)" : " (replayed)"));
    chain.mean.zero();
    chain.totals.zero();
    if (run < 4) {
      p.run(*gpu);
      gpu->synchronize();
    } else {  // on a stream of the app's
      p.run(stream);
      stream.synchronize();
    }
    requireSameBits(chain.outputs(), expected);
    INFO(p.whyNotCaptured());
    CHECK(p.captured() == (run >= 2));
  }

  // The replay reads the buffers' new contents.
  chain.refill(11);
  const Outputs refilled = chain.oneByOne();
  REQUIRE_FALSE(sameBits(refilled.normalized, expected.normalized));
  REQUIRE_FALSE(sameBits(refilled.totals, expected.totals));
  p.run(*gpu);
  gpu->synchronize();
  requireSameBits(chain.outputs(), refilled);
  CHECK(p.captured());

  // A launch added drops the graph: the next run is eager, the one after captures again.
  p.add(chain.rowMean, chain.rowsPlan, chain.normalized, chain.cols, chain.mean);
  CHECK_FALSE(p.captured());
  for (int run = 1; run <= 3; ++run) {
    INFO("after add, run " << run);
    p.run(*gpu);
    gpu->synchronize();
    CHECK(p.captured() == (run >= 2));
  }
  const std::vector<float> normalized = chain.normalized.read();
  DeviceBuffer<float> meanOfNormalized(*gpu, static_cast<std::size_t>(chain.rows));
  chain.rowMean.launch(*gpu, chain.rowsPlan, chain.normalized, chain.cols, meanOfNormalized);
  gpu->synchronize();
  CHECK(sameBits(chain.mean.read(), meanOfNormalized.read()));
}

}  // namespace
}  // namespace culift::rttest
