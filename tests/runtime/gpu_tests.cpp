// GPU tests: engine, buffers, launches of hand-built and translated kernels against the CPU
// backend, timing. Without a GPU each prints "skipped: no GPU" and passes.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "backend_suite.hpp"
#include "constant_kernels_suite.hpp"
#include "culift/translate.hpp"
#include "gpu_support.hpp"
#include "table_kernels_suite.hpp"

using namespace culift;
using namespace culift::rt;

TEST_CASE("a GPU engine describes its device", "[gpu]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  CHECK(gpu->backend() == Backend::Gpu);
  const DeviceInfo& d = gpu->device();
  CHECK_FALSE(d.name.empty());
  CHECK(d.arch() >= 50);
  CHECK(d.totalMemory > (1ull << 30));
  CHECK(d.multiprocessors > 0);
  CHECK(d.driverVersion >= 12000);
  CHECK(d.limits.maxThreadsPerBlock >= 1024);
  INFO(d.toString());
  CHECK(d.toString().find("sm_" + std::to_string(d.arch())) != std::string::npos);
  CHECK(gpu->nvrtc() != nullptr);
}

TEST_CASE("the GPU runs the backend suite", "[gpu]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  auto module = rttest::makeTestModule();
  gpu->load(module);
  rttest::runBackendSuite(*gpu, module);
  auto records = gpu->compileRecords();
  REQUIRE(records.size() == 1);
  CHECK(records[0].target == "sm_" + std::to_string(gpu->device().arch()));
  CHECK(std::find(records[0].options.begin(), records[0].options.end(), "--fmad=false") != records[0].options.end());
}

TEST_CASE("the GPU runs a launch over part of its outputs, those outputs only", "[gpu][part]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  rttest::runPartSuite(*gpu, rttest::makeTestModule());
}

TEST_CASE("big buffers round-trip through the device, sync and async", "[gpu]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  std::vector<double> host(1 << 22);
  for (std::size_t k = 0; k < host.size(); ++k) host[k] = std::sin(static_cast<double>(k));
  DeviceBuffer<double> d(*gpu, host);
  CHECK(d.read() == host);
  Stream s = gpu->createStream();
  std::vector<double> back(host.size());
  d.zero(&s);
  d.writeAsync(host, s);
  d.readAsync(back, s);
  s.synchronize();
  CHECK(back == host);
}

TEST_CASE("a second engine finds the compiled image in the memory or disk cache", "[gpu]") {
  auto first = rttest::gpuOrSkip();
  if (!first) return;
  auto module = rttest::makeTestModule();
  first->load(module);
  auto second = rttest::gpuOrSkip();
  second->load(module);
  CHECK(second->compileRecords()[0].fromCache);
  CHECK(second->cache().stats().hits() == 1);
}

TEST_CASE("translated Pearson kernels agree bit for bit with the CPU backend", "[gpu]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  const std::string path = rttest::sourceFile("examples/pearson/pearson_metrics.hpp");
  if (path.empty()) {
    WARN("skipped: examples/pearson/pearson_metrics.hpp not found");
    return;
  }
  TranslateResult translated = translate(path);
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  std::shared_ptr<const Module> module = translated.module;
  auto cpu = Engine::createCpu();

  const int rows = 96, cols = 200;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(rows * cols);
  for (float& v : x) v = dist(rng);

  struct Results {
    std::vector<float> sums, gram, clamp;
    float ms = 0;
  };
  auto run = [&](Engine& e) {
    Results r;
    DeviceBuffer<float> dx(e, x), sums(e, rows), gram(e, rows * rows), clamp(e, rows * rows);
    Event start = e.createEvent(), stop = e.createEvent();
    start.record(e);
    e.kernel(module, "RowSum").launch(e, LaunchPlanner::for1D(rows, 64), dx, cols, sums);
    e.kernel(module, "GramDot").launch(e, LaunchPlanner::for2D(rows, rows, 16, 16), dx, cols, gram);
    // PearsonClamp is element-wise: every scalar parameter is an array.
    e.kernel(module, "PearsonClamp").launch(e, LaunchPlanner::for1D(rows * rows), gram, gram, clamp);
    stop.record(e);
    e.synchronize();
    r.ms = Event::elapsedMs(start, stop);
    r.sums = sums.read();
    r.gram = gram.read();
    r.clamp = clamp.read();
    return r;
  };
  // PearsonClamp(gram, gram) reads the same buffer twice: allowed, neither is written.
  Results g = run(*gpu), c = run(*cpu);
  CHECK(g.ms > 0.0f);
  for (int k = 0; k < rows; ++k) REQUIRE(std::memcmp(&g.sums[k], &c.sums[k], sizeof(float)) == 0);
  for (int k = 0; k < rows * rows; ++k) {
    INFO("index " << k << ": gpu " << g.gram[k] << " cpu " << c.gram[k]);
    REQUIRE(std::memcmp(&g.gram[k], &c.gram[k], sizeof(float)) == 0);
    REQUIRE(std::memcmp(&g.clamp[k], &c.clamp[k], sizeof(float)) == 0);
  }
}

// EngineOptions::compileEachEntry: each kernel compiled alone when first launched (its record
// names it; NVRTC got the guard macros), with the bits of the whole module's; Engine::load then
// compiles the whole module, which later launches use.
TEST_CASE("an engine that compiles kernel by kernel compiles those launched, with the same bits", "[gpu]") {
  auto whole = rttest::gpuOrSkip();
  if (!whole) return;
  EngineOptions options;
  options.math = MathMode::Strict;
  options.compileEachEntry = true;
  options.diskCache = false;
  auto each = Engine::tryCreate(options);
  REQUIRE(each);
  TranslateResult translated = translateSource(
      "#include <culift/annotate.hpp>\n"
      "CULIFT_KERNEL float Scale(const float* x, float a, int i) { return a * x[i] + 1.0f; }\n"
      "CULIFT_KERNEL float Gemm(const float* A, const float* B, int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n  return s;\n}\n",
      "entries.cpp");
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  std::shared_ptr<const Module> module = translated.module;
  const int n = 300, nk = 37;
  std::vector<float> x(n * nk), y(nk * n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (float& v : x) v = dist(rng);
  for (float& v : y) v = dist(rng);
  auto run = [&](Engine& e) {
    DeviceBuffer<float> dx(e, x), dy(e, y), scaled(e, n * nk), product(e, n * n);
    e.kernel(module, "Scale").launch(e, LaunchPlanner::for1D(n * nk), dx, 0.75f, scaled);
    e.kernel(module, "Gemm").launch(e, LaunchPlanner::for2D(n, n), dx, dy, nk, n, product);
    e.synchronize();
    std::vector<float> out = scaled.read(), p = product.read();
    out.insert(out.end(), p.begin(), p.end());
    return out;
  };
  const std::vector<float> want = run(*whole), got = run(*each);
  REQUIRE(got.size() == want.size());
  CHECK(std::memcmp(got.data(), want.data(), got.size() * sizeof(float)) == 0);
  std::vector<CompileRecord> records = each->compileRecords();
  REQUIRE(records.size() >= 2);  // Scale's wrapper and one of Gemm's entries, alone each
  for (const CompileRecord& r : records) {
    INFO(r.entry);
    CHECK_FALSE(r.entry.empty());
    CHECK(std::find(r.options.begin(), r.options.end(), "-D" + entryMacro(r.entry)) != r.options.end());
  }
  CHECK(std::count_if(records.begin(), records.end(),
                      [](const CompileRecord& r) { return r.entry == "Scale_kernel"; }) == 1);
  each->load(module);
  records = each->compileRecords();
  CHECK(std::count_if(records.begin(), records.end(), [](const CompileRecord& r) { return r.entry.empty(); }) == 1);
  CHECK(run(*each) == want);
}

// The golden kernel of an int that wrapped, then widened (seed 20261206, program 2940 of the GPU
// leg): with records whose last member is within 3 of INT_MIN, the device compiler's optimizer
// took (long long)(int)((unsigned)m + 0xfffffffdu) for (long long)m - 3 unless culift hides the
// conversion. Every output against the CPU backend, bit for bit.
TEST_CASE("an int that wrapped widens as C++ says on the GPU", "[gpu]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  const std::string path = rttest::sourceFile("tests/codegen/golden/int_wrap_extension.cpp");
  REQUIRE(!path.empty());
  TranslateOptions options;
  options.compilerArgs = {"-I" + rttest::sourceFile("include")};
  TranslateResult translated = translate(path, options);
  INFO(translated.formatDiagnostics());
  REQUIRE(translated.ok());
  auto cpu = Engine::createCpu();
  // 64 records of 3 ints: every member near INT_MIN or INT_MAX in some record, the rest small.
  const int extremes[] = {INT_MIN, INT_MIN + 1, INT_MIN + 2, INT_MIN + 3, INT_MAX, INT_MAX - 26, -1, 0, 2};
  std::vector<int> v(192);
  for (std::size_t k = 0; k < v.size(); ++k) v[k] = extremes[(k * 7 + k / 3) % std::size(extremes)];
  const auto run = [&](Engine& e) {
    DeviceBuffer<int> dv(e, v);
    DeviceBuffer<double> out(e, 64);
    e.kernel(translated.module, "IntWrapExtension").launch(e, LaunchPlanner::for1D(64, 32), dv, out);
    e.synchronize();
    return out.read();
  };
  const std::vector<double> g = run(*gpu), c = run(*cpu);
  for (std::size_t k = 0; k < g.size(); ++k) {
    INFO("output " << k << ": record " << v[3 * k] << ", " << v[3 * k + 1] << ", " << v[3 * k + 2] << "; gpu " << g[k]
                   << ", cpu " << c[k]);
    REQUIRE(std::memcmp(&g[k], &c[k], sizeof(double)) == 0);
  }
}

TEST_CASE("the occupancy calculator shapes plans within the device limits", "[gpu]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  auto module = rttest::makeTestModule();
  Kernel outer = gpu->kernel(module, "Outer");
  unsigned block = outer.suggestedBlockSize();
  CHECK(block >= 32);
  CHECK(block <= gpu->device().limits.maxThreadsPerBlock);
  LaunchPlan plan = outer.plan(5000, 70000);
  CHECK(plan.block.volume() <= block);
  CHECK(plan.grid.y <= gpu->device().limits.maxGrid[1]);
}

TEST_CASE("constants and uniform parameters run on the CPU backend as natively", "[cpu][constants][uniform]") {
  auto cpu = Engine::createCpu();
  rttest::runConstantKernels(*cpu);
  rttest::runUniformKernels(*cpu);
}

TEST_CASE("constants and uniform parameters run on the GPU as natively", "[gpu][constants][uniform]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  rttest::runConstantKernels(*gpu);
  rttest::runUniformKernels(*gpu);
}

TEST_CASE("element-wise kernels reading a table run on the CPU backend as natively", "[cpu][elementwise]") {
  auto cpu = Engine::createCpu();
  rttest::runTableKernels(*cpu);
}

TEST_CASE("element-wise kernels reading a table run on the GPU as natively", "[gpu][elementwise]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  rttest::runTableKernels(*gpu);
}

TEST_CASE("asserts are compiled out of GPU kernels by default, as NDEBUG does", "[gpu][assert]") {
  auto gpu = rttest::gpuOrSkip();
  if (!gpu) return;
  auto module = rttest::constantKernelsModule();
  std::vector<float> x = {4.0f, -1.0f, 9.0f, -0.0f};
  DeviceBuffer<float> dx(*gpu, x), out(*gpu, x.size());
  gpu->kernel(module, "CheckedSqrt").launch(*gpu, LaunchPlanner::for1D(4), dx, out);
  gpu->synchronize();  // no CUDA_ERROR_ASSERT: the failing element just computes
  const std::vector<float> r = out.read();
  CHECK(r[0] == 2.0f);
  CHECK(std::isnan(r[1]));
  CHECK(r[2] == 3.0f);
  for (const CompileRecord& record : gpu->compileRecords())
    CHECK(std::find(record.options.begin(), record.options.end(), "-DCULIFT_DEVICE_ASSERTS") == record.options.end());
  // The CPU backend (the interpreter) checks it always.
  auto cpu = Engine::createCpu();
  DeviceBuffer<float> cx(*cpu, x), cout(*cpu, x.size());
  CHECK_THROWS_WITH(cpu->kernel(module, "CheckedSqrt").launch(*cpu, LaunchPlanner::for1D(4), cx, cout),
                    Catch::Contains("assertion 'x >= 0.0f && \"the input must not be negative\"' failed"));
}
