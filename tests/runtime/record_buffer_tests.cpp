// Arrays of structs through the runtime: a DeviceBuffer<Particle> and a buffer of the records'
// floats launch the kernels of data/record_kernels.hpp with the results of the same functions
// compiled natively, bit for bit, on the CPU backend and on the GPU; a buffer of other records,
// of another scalar type, or of records for a parameter of scalars is an ArgumentError naming
// the argument.
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "culift/runtime/runtime.hpp"
#include "culift/translate.hpp"
#include "data/record_kernels.hpp"
#include "gpu_support.hpp"

namespace culift::rttest {
namespace {

using rt::DeviceBuffer;
using rt::LaunchPlanner;

std::shared_ptr<const Module> recordKernels() {
  static const std::shared_ptr<const Module> module = [] {
    TranslateOptions options;
    options.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
    TranslateResult r = translate(sourceFile("tests/runtime/data/record_kernels.hpp"), options);
    INFO(r.formatDiagnostics());
    REQUIRE(r.ok());
    return std::shared_ptr<const Module>(r.module);
  }();
  return module;
}

std::vector<Particle> particles(std::size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-4.0f, 4.0f);
  std::vector<Particle> ps(n);
  for (Particle& p : ps) p = Particle{{d(rng), d(rng), d(rng)}, {d(rng), d(rng), d(rng)}, std::fabs(d(rng)) + 0.1f};
  return ps;
}

// The same bytes (the structs here have no padding).
template <typename T, typename U> bool sameBytes(const std::vector<T>& a, const std::vector<U>& b) {
  return a.size() * sizeof(T) == b.size() * sizeof(U) && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

std::string launchError(const std::function<void()>& launch) {
  try {
    launch();
  } catch (const rt::ArgumentError& e) {
    return e.what();
  }
  return "(accepted)";
}

// Each kernel on buffers of records and on buffers of their scalars, against the native calls.
void runRecordKernels(rt::Engine& e) {
  INFO("the " << rt::name(e.backend()) << " backend");
  auto module = recordKernels();
  const int n = 1000;
  const auto plan = LaunchPlanner::for1D(n);
  const std::vector<Particle> ps = particles(n);

  DeviceBuffer<Particle> records(e, ps);
  CHECK(records.size() == static_cast<std::size_t>(n));
  CHECK(records.bytes() == n * sizeof(Particle));
  CHECK(records.recordSize() == sizeof(Particle));
  CHECK(records.recordAlign() == alignof(Particle));
  CHECK(records.element() == Scalar::Void);
  std::vector<float> floats(n * sizeof(Particle) / sizeof(float));
  std::memcpy(floats.data(), ps.data(), n * sizeof(Particle));
  DeviceBuffer<float> flat(e, floats);

  std::vector<float> kinetic(n);
  for (int i = 0; i < n; ++i) kinetic[i] = Kinetic(ps.data(), i);
  const rt::Kernel kin = e.kernel(module, "Kinetic");
  {
    DeviceBuffer<float> out(e, n);
    kin.launch(e, plan, std::as_const(records), out);
    e.synchronize();
    CHECK(sameBytes(out.read(), kinetic));
  }
  {
    DeviceBuffer<float> out(e, n);
    kin.launch(e, plan, flat, out);  // the flat view, as before struct buffers
    e.synchronize();
    CHECK(sameBytes(out.read(), kinetic));
  }

  std::vector<Particle> stepped(n);
  for (int i = 0; i < n; ++i) Step(ps.data(), stepped.data(), 0.125f, i);
  const rt::Kernel step = e.kernel(module, "Step");
  {
    DeviceBuffer<Particle> out(e, n);
    step.launch(e, plan, records, out, 0.125f);
    e.synchronize();
    CHECK(sameBytes(out.read(), stepped));
  }
  {
    DeviceBuffer<float> out(e, floats.size());  // records in, their floats out
    step.launch(e, plan, records, out, 0.125f);
    e.synchronize();
    CHECK(sameBytes(out.read(), stepped));
  }

  std::vector<Interval> intervals(n);
  std::vector<double> scale(n), width(n);
  for (int i = 0; i < n; ++i) {
    intervals[i] = Interval{0.1 * i, 0.3 * i * i - 7.0};
    scale[i] = 1.0 / (i + 3);
  }
  for (int i = 0; i < n; ++i) width[i] = Width(intervals.data(), scale.data(), i);
  DeviceBuffer<Interval> dr(e, intervals);
  DeviceBuffer<double> dscale(e, scale), out(e, n);
  e.kernel(module, "Width").launch(e, plan, dr, dscale, out);
  e.synchronize();
  CHECK(sameBytes(out.read(), width));

  // Reads and writes of part of a buffer of records.
  std::vector<Particle> two(2);
  records.read(two, 5);
  CHECK(sameBytes(two, std::vector<Particle>(ps.begin() + 5, ps.begin() + 7)));
  records.write(two, 0);
  CHECK(sameBytes(records.read(), [&] {
    std::vector<Particle> v = ps;
    v[0] = ps[5];
    v[1] = ps[6];
    return v;
  }()));
}

// What a launch refuses, each named.
void runRecordArgumentChecks(rt::Engine& e) {
  INFO("the " << rt::name(e.backend()) << " backend");
  auto module = recordKernels();
  const auto plan = LaunchPlanner::for1D(4);
  const rt::Kernel kin = e.kernel(module, "Kinetic"), step = e.kernel(module, "Step"),
                   width = e.kernel(module, "Width");
  DeviceBuffer<Particle> records(e, 4), written(e, 4);
  DeviceBuffer<float> out(e, 4);

  struct Small {
    float x, y;
  };
  DeviceBuffer<Small> small(e, 4);
  std::string message = launchError([&] { kin.launch(e, plan, small, out); });
  CHECK(message.find("Kinetic: argument 1 ('const Particle* ps'): a buffer of 8-byte records (align 4), but the "
                     "kernel's Particle is 28 bytes (align 4)") != std::string::npos);
  CHECK(message.find("kernel signature: Kinetic_kernel(") != std::string::npos);

  struct Quad {
    float a, b, c, d;
  };
  static_assert(sizeof(Quad) == sizeof(Interval) && alignof(Quad) != alignof(Interval));
  DeviceBuffer<Quad> quads(e, 4);
  DeviceBuffer<double> scale(e, 4), wout(e, 4);
  CHECK(launchError([&] { width.launch(e, plan, quads, scale, wout); })
            .find("argument 1 ('const Interval* r'): a buffer of 16-byte records (align 4), but the kernel's "
                  "Interval is 16 bytes (align 8)") != std::string::npos);

  DeviceBuffer<double> doubles(e, 28);
  CHECK(launchError([&] { kin.launch(e, plan, doubles, out); })
            .find("argument 1 ('const Particle* ps') expects a buffer of float (the Particle records' floats) or of "
                  "Particle records, got a buffer of 28 double") != std::string::npos);
  CHECK(launchError([&] { kin.launch(e, plan, 1.0f, out); })
            .find("argument 1 ('const Particle* ps') is an array: pass a DeviceBuffer<Particle> or a "
                  "DeviceBuffer<float>, got float") != std::string::npos);

  // Records where an array of scalars goes: `out`, and a plain array.
  CHECK(launchError([&] { kin.launch(e, plan, records, written); })
            .find("argument 2 ('float* culift_out') is an array of float, not of structs: pass a "
                  "DeviceBuffer<float>, got a buffer of 4 28-byte records") != std::string::npos);
  DeviceBuffer<Interval> intervals(e, 4);
  CHECK(launchError([&] {
          width.launch(e, plan, intervals, intervals, wout);
        }).find("argument 2 ('const double* scale') is an array of double, not of structs") != std::string::npos);

  // A written array of records takes no const buffer; a read one does.
  CHECK(launchError([&] {
          step.launch(e, plan, records, std::as_const(written), 0.5f);
        }).find("argument 2 ('Particle* out') is written by the kernel, but the buffer was passed as const") !=
        std::string::npos);
  CHECK(launchError([&] { step.launch(e, plan, std::as_const(records), written, 0.5f); }) == "(accepted)");
  // __restrict__: the same records in and out.
  CHECK(launchError([&] {
          step.launch(e, plan, records, records, 0.5f);
        }).find("the same buffer is passed for 'out' and 'in'") != std::string::npos);
  e.synchronize();

  // The kernel sees the records as their scalars.
  const Function& fn = *module->find("Kinetic");
  const rt::LaunchArg args[] = {rt::LaunchArg::of(records), rt::LaunchArg::of(out)};
  const auto resolved = rt::resolveLaunchArguments(fn, plan, args, &e);
  REQUIRE(resolved[0].isBuffer);
  CHECK(resolved[0].buffer.element == Scalar::F32);
  CHECK(resolved[0].buffer.count == 4 * 7);
  CHECK(resolved[0].buffer.recordSize == 0);
  CHECK(resolved[0].buffer.address == records.address());

  // Copies are range-checked in records.
  std::vector<Particle> five(5);
  std::string copy;
  try {
    records.write(five);
  } catch (const rt::Error& x) {
    copy = x.what();
  }
  CHECK(copy == "buffer write of 5 28-byte records at element 0 does not fit a buffer of 4");
}

}  // namespace

TEST_CASE("arrays of structs run on the CPU backend as natively, from struct and scalar buffers", "[cpu][records]") {
  auto cpu = rt::Engine::createCpu();
  runRecordKernels(*cpu);
  runRecordArgumentChecks(*cpu);
}

TEST_CASE("arrays of structs run on the GPU as natively, from struct and scalar buffers", "[gpu][records]") {
  auto gpu = gpuOrSkip();
  if (!gpu) return;
  runRecordKernels(*gpu);
  runRecordArgumentChecks(*gpu);
}

}  // namespace culift::rttest
