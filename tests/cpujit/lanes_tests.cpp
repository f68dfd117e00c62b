// Lanes: neighbouring outputs computed side by side (cpujit/src/lanes.cpp). Kernels whose lanes
// run in lock step give the bytes of one output at a time and of the interpreter, on extents
// whose rows hold whole groups, part groups and tiles; kernels that cannot run so say why; a
// failing output is reported as one output at a time reports it; an out array that overlaps an
// input keeps C order.
#include <cstring>

#include "catch.hpp"
#include "culift/translate.hpp"
#include "launch_harness.hpp"

using namespace culift;
using culift::testing::LaunchData;

namespace {

constexpr const char* kSource = R"(#include <culift/annotate.hpp>
// Uniform loops: lanes, and a tile where 2-D.
CULIFT_KERNEL float Dot(const float* x, int cols, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < cols; ++k) acc += x[i * cols + k] * x[j * cols + k];
  return acc;
}
CULIFT_KERNEL float Wide(const float* x, int cols, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < cols; ++k) acc += x[(i * cols + k) % 256] * x[(j * cols + k) % 256];
  return acc;
}
CULIFT_KERNEL double Blend(const double* x, int cols, int i) {
  double s = 0.0, t = 1.0;
  for (int k = 0; k < cols; ++k) {
    s += (x[(i + k) % 256] > 0.0 && i % 3 != 0) ? x[k] : -x[(i * 7) % 256];
    t = t * 0.5 + s;
    if (k == 5) break;
  }
  return s / t;
}
// A local array written at an index that differs per output; a pure helper with a loop.
inline float total(const float* x, int n) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[k] * x[k + 1];
  return s;
}
CULIFT_KERNEL float Local(const float* x, int cols, int i) {
  float a[4] = {};
  for (int k = 0; k < 4; ++k) {
    a[(i + k) % 4] += x[(i * cols + k) % 256];
    float& r = a[k];
    r = r * 1.5f + total(x, cols);
  }
  return a[0] - a[3] * static_cast<float>(i);
}
CULIFT_KERNEL bool Any(const float* x, int cols, int i, int j) {
  bool any = false;
  for (int k = 0; k < cols; ++k) any = any || x[i * cols + k] > x[j] * 2.0f;
  return any;
}
CULIFT_KERNEL long long Box(const int* v, int n, int i, int j, int k) {
  long long s = 0;
  for (int t = 0; t < n + 4; ++t) s = s * 3 + v[(i * 37 + j * 11 + k + t) % 256];
  return s;
}
CULIFT_KERNEL CULIFT_UNIFORM(degree) float Horner(float x, int degree) {
  float acc = 0.0f;
  for (int k = 0; k <= degree; ++k) acc = acc * x + 1.0f / static_cast<float>(k + 1);
  return acc;
}
// One output at a time: a loop whose bound is the index; a helper that writes a reference;
// an array written.
CULIFT_KERNEL float Ragged(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < i % 5; ++k) s += x[k + cols];
  return s;
}
CULIFT_KERNEL int Steps(const int* v, int cols, int i) {
  int limit = cols / 4;
  const bool longer = i % 2 == 0 && (limit = cols) > 0;  // limit differs where i is even
  int s = longer ? 1 : 0;
  for (int k = 0; k < limit; ++k) s = s * 2 + v[k];
  return s;
}
inline void bump(float& a, float v) { a += v; }
CULIFT_KERNEL float Bumped(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols; ++k) bump(s, x[i + k]);
  return s;
}
CULIFT_KERNEL float Touch(float* y, int cols, int i) {
  y[i] = y[i] * static_cast<float>(cols);
  return y[i] + 1.0f;
}
// Fails for the outputs whose window runs past the array.
CULIFT_KERNEL float Window(const float* x, int cols, int i) {
  float s = 0.0f;
  for (int k = 0; k < cols * 4; ++k) s += x[i * 8 + k];
  return s;
}
CULIFT_KERNEL float Previous(const float* x, int i) { return i > 0 ? x[i - 1] + 1.0f : 0.0f; }
)";

struct Programs {
  std::shared_ptr<Module> module;
  std::shared_ptr<const interp::Program> interpreter;
  std::shared_ptr<const cpujit::Program> lanes, one, lanesChecked, oneChecked;
};

const Programs& programs() {
  static const Programs p = [] {
    TranslateOptions o;
    o.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
    TranslateResult r = translateSource(kSource, "lanes.cpp", o);
    INFO(r.formatDiagnostics());
    REQUIRE(r.module);
    Programs p;
    p.module = r.module;
    interp::Options io;
    io.threads = 1;
    p.interpreter = interp::Program::compile(p.module, io);
    cpujit::Options lanes, one;
    one.lanes = 1;
    p.lanes = cpujit::Program::compile(p.module, lanes);
    p.one = cpujit::Program::compile(p.module, one);
    lanes.checked = one.checked = true;
    p.lanesChecked = cpujit::Program::compile(p.module, lanes);
    p.oneChecked = cpujit::Program::compile(p.module, one);
    return p;
  }();
  return p;
}

interp::Extent extentOf(std::initializer_list<std::int64_t> n) {
  interp::Extent x;
  x.rank = static_cast<unsigned>(n.size());
  unsigned a = 0;
  for (std::int64_t v : n) x.n[a++] = v;
  return x;
}

}  // namespace

TEST_CASE("lanes give the bytes of one output at a time and of the interpreter", "[cpujit][lanes]") {
  const Programs& p = programs();
  struct Case {
    const char* name;
    interp::Extent extent;
  };
  const Case cases[] = {
      {"Dot", extentOf({9, 13})},  {"Dot", extentOf({4, 4})},    {"Wide", extentOf({3, 70})},
      {"Dot", extentOf({30, 31})}, {"Wide", extentOf({9, 130})}, {"Blend", extentOf({29})},
      {"Local", extentOf({19})},   {"Any", extentOf({5, 17})},   {"Box", extentOf({2, 3, 21})},
      {"Horner", extentOf({45})},  {"Ragged", extentOf({20})},   {"Steps", extentOf({20})},
      {"Bumped", extentOf({20})},  {"Touch", extentOf({20})},    {"Previous", extentOf({40})},
  };
  for (const Case& c : cases) {
    const Function& fn = *p.module->find(c.name);
    INFO(c.name << " over " << c.extent.n[0] << "x" << c.extent.n[1] << "x" << c.extent.n[2]);
    for (std::uint64_t seed : {1u, 9u}) {
      LaunchData reference(fn, c.extent, seed);
      std::vector<interp::Arg> args = reference.interpArgs();
      REQUIRE_NOTHROW(p.interpreter->launch(fn, c.extent, args));
      for (const cpujit::Program* jit : {p.lanes.get(), p.one.get(), p.lanesChecked.get(), p.oneChecked.get()}) {
        LaunchData compiled(fn, c.extent, seed);
        const cpujit::Kernel* k = jit->kernel(fn);
        REQUIRE(k);
        const cpujit::LaunchArgs a = compiled.jitArgs();
        REQUIRE_FALSE(k->run(a, 0, compiled.outputs()));
        const CrossCheckResult r = culift::testing::compareLaunches(reference, compiled);
        INFO(r.summary());
        CHECK(r.equal);
        // Ranges that start and end inside rows and groups, as the CPU backend's chunks do.
        LaunchData chunked(fn, c.extent, seed);
        const cpujit::LaunchArgs b = chunked.jitArgs();
        REQUIRE_FALSE(culift::testing::runChunked(*k, b, chunked.outputs(), 3, false));
        CHECK(chunked.bytes == compiled.bytes);
      }
    }
  }
}

TEST_CASE("a kernel says whether its outputs run in lanes, and why not", "[cpujit][lanes]") {
  const Programs& p = programs();
  auto kernel = [&](const char* name) { return p.lanes->kernel(*p.module->find(name)); };
  for (const char* name : {"Dot", "Wide", "Blend", "Local", "Any", "Box", "Horner", "Window", "Previous"}) {
    INFO(name);
    REQUIRE(kernel(name));
    CHECK(kernel(name)->lanes() == 8);
    CHECK(kernel(name)->whyOneLane().empty());
  }
  CHECK(kernel("Dot")->tiled());
  CHECK(kernel("Any")->tiled());
  CHECK_FALSE(kernel("Blend")->tiled());
  const std::pair<const char*, const char*> one[] = {
      {"Ragged", "line 56: a condition that differs between neighbouring outputs"},
      {"Steps", "line 63: a condition that differs between neighbouring outputs"},
      {"Bumped", "it calls 'bump': 'bump' writes memory that is not its own"},
      {"Touch", "'Touch' writes memory that is not its own"},
  };
  for (const auto& [name, why] : one) {
    INFO(name);
    REQUIRE(kernel(name));
    CHECK(kernel(name)->lanes() == 1);
    CHECK(kernel(name)->whyOneLane() == why);
  }
  CHECK(p.one->kernel(*p.module->find("Dot"))->lanes() == 1);
  CHECK(p.one->kernel(*p.module->find("Dot"))->whyOneLane() == "Options::lanes is 1");
  cpujit::Options none;
  none.lanes = 0;
  CHECK_THROWS_WITH(cpujit::Program::compile(p.module, none), Catch::Contains("Options::lanes is 0; it takes 1 to 64"));
}

TEST_CASE("a failing output in lanes is reported as one output at a time reports it", "[cpujit][lanes]") {
  const Programs& p = programs();
  // Window(i) reads x[i*8 .. i*8+31]: with 256 elements, outputs from 29 on read past the end.
  const Function& fn = *p.module->find("Window");
  const interp::Extent extent = extentOf({40});
  LaunchData lanes(fn, extent, 3), one(fn, extent, 3);
  const auto a = lanes.jitArgs(), b = one.jitArgs();
  const auto inLanes = p.lanesChecked->kernel(fn)->run(a, 0, lanes.outputs());
  const auto oneAtATime = p.oneChecked->kernel(fn)->run(b, 0, one.outputs());
  REQUIRE(inLanes);
  REQUIRE(oneAtATime);
  CHECK(inLanes->output == 29);
  CHECK(oneAtATime->output == 29);
  CHECK(inLanes->diagnostic.format() == oneAtATime->diagnostic.format());
  CHECK(inLanes->diagnostic.message == "index out of bounds for array 'x'");
  // The outputs before the failing one are stored, as one at a time stores them.
  const std::size_t outK = fn.signature.params.size() - 2;
  CHECK(std::memcmp(lanes.bytes[outK].data(), one.bytes[outK].data(), 29 * sizeof(float)) == 0);
  // Within a tile: Dot over rows past the end of x fails at the first such output in C order.
  const Function& dot = *p.module->find("Dot");
  const interp::Extent big = extentOf({40, 8});  // rows from 32 on read past x's 256 elements
  LaunchData d1(dot, big, 3), d2(dot, big, 3);
  const auto e1 = p.lanesChecked->kernel(dot)->run(d1.jitArgs(), 0, d1.outputs());
  const auto e2 = p.oneChecked->kernel(dot)->run(d2.jitArgs(), 0, d2.outputs());
  REQUIRE(e1);
  REQUIRE(e2);
  CHECK(e1->output == e2->output);
  CHECK(e1->output == 32 * 8);  // (32, 0)
  CHECK(e1->diagnostic.format() == e2->diagnostic.format());
}

TEST_CASE("an out array that overlaps an input keeps C order in lanes", "[cpujit][lanes]") {
  const Programs& p = programs();
  const Function& fn = *p.module->find("Previous");
  const cpujit::Kernel* k = p.lanes->kernel(fn);
  REQUIRE(k);
  REQUIRE(k->lanes() == 8);
  // out is x: each output reads the one before it, which C order has just written.
  std::vector<float> x(40, 100.0f);
  cpujit::LaunchArgs a;
  const std::int64_t n = 40;
  a.params = {x.data(), x.data(), &n};
  a.lengths = {x.size(), x.size(), 0};
  a.extent[0] = n;
  REQUIRE_FALSE(k->run(a, 0, 40));
  for (std::size_t e = 0; e < x.size(); ++e) CHECK(x[e] == static_cast<float>(e));
}
