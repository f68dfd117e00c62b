// Host launchers (culift_add_kernels HOST_LAUNCHERS): the kernels' native CPU entries, compiled
// with this program from the headers it translated at build time. Every kernel shape gives the
// same bits through its launcher as compiled by the JIT and as interpreted; the launcher is what
// runs (a kernel that knows which code it is says so); a module of launchers only compiles
// nothing; a reassociating kernel's plan order still comes from the JIT; a launcher made for
// another signature is refused with a warning.
#include <cstring>
#include <random>

#include "catch.hpp"
#include "culift/runtime/host_launchers.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift_kernels/host_kernels.hpp"
#include "culift_kernels/host_reassociating_kernels.hpp"
#include "data/host_kernels.hpp"

namespace culift_kernels::detail {
std::span<const culift::rt::HostLauncher> host_reassociating_kernels_host_launchers();  // the generated source's
}

using namespace culift;
using namespace culift::rt;

namespace {

std::shared_ptr<Engine> cpuEngine(bool launchers, CpuCode code = CpuCode::Checked,
                                  std::vector<std::string>* warnings = nullptr) {
  EngineOptions o;
  o.cpuCode = code;
  o.hostLaunchers = launchers;
  o.cpuThreads = 2;
  if (warnings) o.warn = [warnings](const std::string& w) { warnings->push_back(w); };
  return Engine::createCpu(o);
}

template <class T> std::vector<T> randoms(std::size_t n, unsigned seed, double lo = -2.0, double hi = 2.0) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(d(rng));
  return v;
}

// `run(engine)` launches on one engine and returns what it wrote; the host launcher's result must
// be the JIT's (checked and unchecked) and the interpreter's, byte for byte.
template <class Run> auto sameOnEvery(Run run) {
  auto native = run(*cpuEngine(true));
  for (CpuCode code : {CpuCode::Checked, CpuCode::Unchecked, CpuCode::Interpreted}) {
    INFO(name(code));
    auto other = run(*cpuEngine(false, code));
    REQUIRE(other.size() == native.size());
    CHECK(std::memcmp(other.data(), native.data(), native.size() * sizeof(native[0])) == 0);
  }
  return native;
}

}  // namespace

TEST_CASE("a host launcher is what runs where the module has one", "[cpu]") {
  auto module = culift_kernels::host_kernels();
  const std::int64_t n = 5000;  // over 4,096 outputs: split over the pool
  for (bool launchers : {true, false}) {
    auto engine = cpuEngine(launchers);
    DeviceBuffer<int> out(*engine, n);
    engine->kernel(module, "WhichCode").launch(*engine, LaunchPlanner::for1D(n), out);
    const std::vector<int> got = out.read();
    const int expected = launchers ? 2 : 1;  // the app's function, or culift's translation of it
    CHECK(std::count(got.begin(), got.end(), expected) == n);
  }
  // The interpreter runs the translation, launchers or not.
  auto interp = cpuEngine(true, CpuCode::Interpreted);
  DeviceBuffer<int> out(*interp, 7);
  interp->kernel(module, "WhichCode").launch(*interp, LaunchPlanner::for1D(7), out);
  CHECK(out.read() == std::vector<int>(7, 1));
}

TEST_CASE("a module whose kernels all have launchers compiles nothing", "[cpu]") {
  auto module = culift_kernels::host_kernels();
  for (const Function* fn : module->kernels()) {
    INFO(fn->name);
    CHECK(bool(findHostLauncher(*module, *fn)) == fn->fusedOf.empty());  // a fused kernel has no C++ function
  }
  auto engine = cpuEngine(true);
  engine->load(module);
  const std::vector<CompileRecord> records = engine->compileRecords();
  REQUIRE(records.size() == 1);
  CHECK(records[0].target == "native");
  CHECK(records[0].log.find("HostClip_float: host launcher") != std::string::npos);
  CHECK(records[0].log.find("HostBlend: host launcher") != std::string::npos);
  // Without launchers the JIT compiles the module.
  auto jit = cpuEngine(false);
  jit->load(module);
  REQUIRE(jit->compileRecords().size() == 1);
  CHECK(jit->compileRecords()[0].target == "host");
}

TEST_CASE("a pipeline runs kernels with launchers one by one, and fuses them without", "[cpu][pipeline]") {
  auto module = culift_kernels::host_kernels();
  REQUIRE(module->find("HostRowSum_HostRowSumSq_fused"));
  const int rows = 37, cols = 301;
  auto run = [&](Engine& e, std::size_t launches) {
    DeviceBuffer<float> x(e, randoms<float>(rows * cols, 5)), sums(e, rows), squares(e, rows);
    Pipeline p(e);
    const LaunchPlan plan = LaunchPlanner::for1D(rows);
    p.add(e.kernel(module, "HostRowSum"), plan, x, cols, sums)
        .add(e.kernel(module, "HostRowSumSq"), plan, x, cols, squares);
    CHECK(p.launchesPerRun() == launches);
    p.run(e);
    e.synchronize();
    std::vector<float> both = sums.read();
    const std::vector<float> sq = squares.read();
    both.insert(both.end(), sq.begin(), sq.end());
    return both;
  };
  // The launchers run faster than the fused kernel would: no fusion where they exist.
  const std::vector<float> native = run(*cpuEngine(true), 2);
  for (CpuCode code : {CpuCode::Checked, CpuCode::Interpreted}) {
    INFO(name(code));
    const std::vector<float> fused = run(*cpuEngine(false, code), 1);
    CHECK(std::memcmp(fused.data(), native.data(), native.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("host launchers give the compiled backend's and the interpreter's bits", "[cpu]") {
  auto module = culift_kernels::host_kernels();
  const int rows = 67, cols = 129;
  const std::vector<float> x = randoms<float>(rows * cols, 1);
  SECTION("a 1-D kernel with a loop") {
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dx(e, x), out(e, rows);
      e.kernel(module, "HostRowSum").launch(e, LaunchPlanner::for1D(rows), dx, cols, out);
      return out.read();
    });
  }
  SECTION("a 2-D kernel in doubles") {
    const int m = 70, k = 33;
    const std::vector<double> a = randoms<double>(m * k, 2), b = randoms<double>(m * k, 3);
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<double> da(e, a), db(e, b), out(e, m * m);
      e.kernel(module, "HostDot").launch(e, LaunchPlanner::for2D(m, m), da, db, k, out);
      return out.read();
    });
  }
  SECTION("a 3-D kernel over long long indices") {
    const long long ni = 5, nj = 31, nk = 37;
    const std::vector<float> v = randoms<float>(ni * nj * nk, 4);
    const auto got = sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dv(e, v), out(e, v.size());
      e.kernel(module, "HostVoxel").launch(e, LaunchPlanner::for3D(ni, nj, nk), dv, nj, nk, out);
      return out.read();
    });
    CHECK(got[(2 * nj + 3) * nk + 4] == HostVoxel(v.data(), nj, nk, 2, 3, 4));
  }
  SECTION("an element-wise kernel with a uniform") {
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dx(e, x), out(e, x.size());
      e.kernel(module, "HostLeaky")
          .launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size())), dx, 0.125f, out);
      return out.read();
    });
  }
  SECTION("a void kernel writing its array") {
    const std::vector<float> y = randoms<float>(x.size(), 5);
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dx(e, x), dy(e, y);
      e.kernel(module, "HostAxpy").launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size())), dx, dy, 1.5f);
      return dy.read();
    });
  }
  SECTION("a template's instances and a namespace's function") {
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dx(e, x), out(e, x.size());
      e.kernel(module, "HostClip_float")
          .launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size())), dx, -0.5f, 0.75f, out);
      return out.read();
    });
    std::vector<int> xi(x.size());
    for (std::size_t k = 0; k < x.size(); ++k) xi[k] = static_cast<int>(x[k] * 100);
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<int> dx(e, xi), out(e, xi.size());
      e.kernel(module, "HostClip_int")
          .launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(xi.size())), dx, -50, 70, out);
      return out.read();
    });
    const std::vector<float> y = randoms<float>(x.size(), 6);
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dx(e, x), dy(e, y), out(e, x.size());
      e.kernel(module, "HostBlend")
          .launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size())), dx, dy, 0.3f, out);
      return out.read();
    });
  }
  SECTION("a struct result, an array of structs, a bool") {
    const auto ranges = sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dx(e, x);
      DeviceBuffer<HostRange> out(e, rows);
      e.kernel(module, "HostRowRange").launch(e, LaunchPlanner::for1D(rows), dx, cols, out);
      return out.read();
    });
    CHECK(ranges[3].lo == *std::min_element(x.begin() + 3 * cols, x.begin() + 4 * cols));
    std::vector<HostPoint> points(x.size() / 2);
    std::memcpy(points.data(), x.data(), points.size() * sizeof(HostPoint));
    sameOnEvery([&](Engine& e) {
      DeviceBuffer<HostPoint> dp(e, points);
      DeviceBuffer<float> out(e, points.size());
      e.kernel(module, "HostNorm").launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(points.size())), dp, out);
      return out.read();
    });
    const auto positive = sameOnEvery([&](Engine& e) {
      DeviceBuffer<float> dx(e, x);
      DeviceBuffer<bool> out(e, x.size());
      e.kernel(module, "HostPositive").launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size())), dx, out);
      const std::vector<bool> bits = out.read();
      return std::vector<unsigned char>(bits.begin(), bits.end());
    });
    CHECK(positive[10] == (x[10] > 0.0f));
  }
}

TEST_CASE("a reassociating kernel's plan order comes from the compiled backend", "[cpu]") {
  auto module = culift_kernels::host_reassociating_kernels();
  const Function* total = module->find("HostRowTotal");
  REQUIRE(total);
  REQUIRE_FALSE(total->reassociatedSums.empty());
  auto engine = cpuEngine(true);
  engine->load(module);
  REQUIRE(engine->compileRecords().size() == 1);
  CHECK(engine->compileRecords()[0].target == "native+host");  // the JIT compiled what launchers leave
  const int rows = 40, cols = 3000;
  const std::vector<float> x = randoms<float>(rows * cols, 7);
  sameOnEvery([&](Engine& e) {
    DeviceBuffer<float> dx(e, x), out(e, rows);
    e.kernel(module, "HostRowTotal").launch(e, LaunchPlanner::for1D(rows), dx, cols, out);
    return out.read();
  });
  sameOnEvery([&](Engine& e) {
    DeviceBuffer<float> dx(e, x), out(e, x.size());
    e.kernel(module, "HostScale").launch(e, LaunchPlanner::for1D(static_cast<std::int64_t>(x.size())), dx, 3.0f, out);
    return out.read();
  });
}

TEST_CASE("a launcher made for another signature is not used, with a warning", "[cpu]") {
  auto module = culift_kernels::host_reassociating_kernels();
  const Function* fn = module->find("HostScale");
  REQUIRE(fn);
  // The module's own launchers, HostScale's claiming another signature.
  const std::span<const HostLauncher> made = culift_kernels::detail::host_reassociating_kernels_host_launchers();
  std::vector<HostLauncher> wrong(made.begin(), made.end());
  bool changed = false;
  for (HostLauncher& l : wrong)
    if (std::string_view(l.kernel) == "HostScale") {
      l.signature = "(const float* x, double a, float* out, long long n_i)";
      changed = true;
    }
  REQUIRE(changed);
  registerHostLaunchers(*module, wrong);
  std::string_view mismatch;
  CHECK_FALSE(findHostLauncher(*module, *fn, &mismatch));
  CHECK(mismatch == "(const float* x, double a, float* out, long long n_i)");
  std::vector<std::string> warnings;
  auto engine = cpuEngine(true, CpuCode::Checked, &warnings);
  const std::vector<float> x = randoms<float>(50, 8);
  DeviceBuffer<float> dx(*engine, x), out(*engine, x.size());
  engine->kernel(module, "HostScale").launch(*engine, LaunchPlanner::for1D(50), dx, 2.0f, out);
  CHECK(out.read()[7] == x[7] * 2.0f);  // compiled by the JIT instead
  REQUIRE(warnings.size() == 1);
  CHECK_THAT(warnings[0], Catch::Contains("the host launcher of 'HostScale' was made for (const float* x, double a"));
  CHECK_THAT(warnings[0], Catch::Contains(fn->signature.toString()));
  registerHostLaunchers(*module, made);  // as the accessor left them
  CHECK(findHostLauncher(*module, *fn));
}
