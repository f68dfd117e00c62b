// The compiled CPU code against the interpreter: every kernel of every golden input and example
// that the lowering accepts gives the interpreter's bytes on sampled arguments; the kernels that
// must be accepted are; chunked multithreaded launches equal one-range launches; reassociated
// loops of many chunks add in the plan's order; checked code reports located errors.
#include <filesystem>
#include <map>
#include <set>

#include "catch.hpp"
#include "culift/cpujit_crosscheck.hpp"
#include "culift/translate.hpp"
#include "launch_harness.hpp"

using namespace culift;
using culift::testing::LaunchData;

namespace {

struct Compiled {
  std::shared_ptr<Module> module;
  std::shared_ptr<const interp::Program> interpreter;
  std::shared_ptr<const cpujit::Program> jit;
  std::shared_ptr<const cpujit::Program> checked;
};

Compiled compileFile(const std::string& path, const std::string& source = {}) {
  TranslateOptions o;
  o.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
  TranslateResult r = source.empty() ? translate(path, o) : translateSource(source, path, o);
  INFO(r.formatDiagnostics());
  REQUIRE(r.module);
  Compiled c;
  c.module = r.module;
  interp::Options io;
  io.threads = 1;  // atomics then add in output order, as one compiled range does
  c.interpreter = interp::Program::compile(c.module, io);
  c.jit = cpujit::Program::compile(c.module);
  cpujit::Options checked;
  checked.checked = true;
  c.checked = cpujit::Program::compile(c.module, checked);
  return c;
}

std::vector<std::string> inputs() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(CULIFT_SOURCE_DIR "/tests/codegen/golden"))
    if (e.path().extension() == ".cpp") files.push_back(e.path().string());
  for (const char* f : {"/examples/pearson/pearson_metrics.hpp", "/examples/sat/sat_overlap.hpp",
                        "/examples/masked_broadcast/masked_broadcast.hpp", "/tests/interpreter/data/ops_functions.hpp"})
    files.push_back(std::string(CULIFT_SOURCE_DIR) + f);
  std::sort(files.begin(), files.end());
  return files;
}

// Launches `fn` on both sides with `seed`'s arguments; true when both ran and were compared.
bool compareOne(const Compiled& c, const Function& fn, const cpujit::Program& jit, std::uint64_t seed,
                bool loopAsWritten) {
  const cpujit::Kernel* k = jit.kernel(fn);
  REQUIRE(k);
  const interp::Extent extent = culift::testing::sampleExtent(fn);
  LaunchData reference(fn, extent, seed), compiled(fn, extent, seed);
  try {
    std::vector<interp::Arg> args = reference.interpArgs();
    c.interpreter->launch(fn, extent, args, loopAsWritten);
  } catch (const interp::Error&) {
    return false;  // undefined behaviour on these arguments: nothing to compare
  }
  const cpujit::LaunchArgs args = compiled.jitArgs();
  const auto error = k->run(args, 0, compiled.outputs(), loopAsWritten);
  INFO(fn.name << (error ? ": " + error->diagnostic.format() : std::string()));
  CHECK_FALSE(error);
  const CrossCheckResult r = culift::testing::compareLaunches(reference, compiled);
  INFO(r.summary());
  CHECK(r.equal);
  return true;
}

}  // namespace

TEST_CASE("compiled kernels give the interpreter's bytes on every golden input and example", "[cpujit]") {
  std::set<std::string> compared, rejected;
  std::map<std::string, std::string> reasons;
  for (const std::string& path : inputs()) {
    INFO(path);
    const Compiled c = compileFile(path);
    for (const Function* fn : c.module->kernels()) {
      const std::string name = std::filesystem::path(path).stem().string() + ":" + fn->name;
      INFO(name);
      if (!c.jit->kernel(*fn)) {
        rejected.insert(name);
        reasons[name] = c.jit->whyNot(*fn);
        CHECK_FALSE(c.jit->whyNot(*fn).empty());
        continue;
      }
      bool any = false;
      for (std::uint64_t seed : {1u, 7u, 42u}) {
        any |= compareOne(c, *fn, *c.jit, seed, false);
        any |= compareOne(c, *fn, *c.checked, seed, false);
        if (!fn->reassociatedSums.empty()) any |= compareOne(c, *fn, *c.jit, seed, true);
      }
      if (any) compared.insert(name);
    }
  }
  for (const auto& [name, why] : reasons) WARN("not compiled: " << name << ": " << why);
  // Coverage that must not shrink silently.
  for (const char* must : {"pearson_metrics:GramDot", "pearson_metrics:RowSum", "pearson_metrics:RowSumSq",
                           "pearson_metrics:PearsonClamp", "pearson_metrics:CorrelationCell",
                           "sat_overlap:RectTriangleOverlap", "loop_columns:ColumnSum", "loop_rows:RowSum",
                           "loop_reassociate:RowTotal", "loop_reassociate:Moments", "grid1d:Grid1D", "grid3d:Grid3D"}) {
    INFO(must);
    CHECK(compared.count(must) == 1);
  }
  CHECK(rejected.size() * 10 <= compared.size());  // nearly every kernel compiles
  CHECK(compared.size() >= 60);
}

TEST_CASE("chunked multithreaded launches equal one-range launches", "[cpujit]") {
  const Compiled c = compileFile(CULIFT_SOURCE_DIR "/examples/pearson/pearson_metrics.hpp");
  for (const char* name : {"GramDot", "RowSum", "PearsonClamp"}) {
    const Function& fn = *c.module->find(name);
    const cpujit::Kernel* k = c.jit->kernel(fn);
    REQUIRE(k);
    interp::Extent x = culift::testing::sampleExtent(fn);
    LaunchData one(fn, x, 3), many(fn, x, 3);
    const cpujit::LaunchArgs a = one.jitArgs(), b = many.jitArgs();
    REQUIRE_FALSE(k->run(a, 0, one.outputs()));
    for (unsigned threads : {2u, 3u, 5u}) {
      REQUIRE_FALSE(culift::testing::runChunked(*k, b, many.outputs(), threads, false));
      CHECK(one.bytes == many.bytes);
    }
  }
}

TEST_CASE("a reassociated loop of many chunks adds in the plan's order", "[cpujit]") {
  const Compiled c = compileFile("reassociated.cpp", R"(#include <culift/annotate.hpp>
CULIFT_KERNEL_REASSOCIATE float RowTotal(const float* x, int cols, int i) {
  float s = 0.5f;
  for (int k = 0; k < cols; ++k) s += x[i * cols + k] * 1.25f;
  return s;
}
)");
  const Function& fn = *c.module->find("RowTotal");
  REQUIRE_FALSE(fn.reassociatedSums.empty());
  const cpujit::Kernel* k = c.jit->kernel(fn);
  REQUIRE(k);
  REQUIRE(k->reassociates());
  const int cols = 3 * 4096 + 77, rows = 3;
  std::vector<float> x(static_cast<std::size_t>(cols) * rows);
  for (std::size_t e = 0; e < x.size(); ++e) x[e] = static_cast<float>((e * 2654435761u) % 1000) / 7.0f - 60.0f;
  for (bool asWritten : {false, true}) {
    std::vector<float> want(rows), got(rows, -1.0f);
    std::vector<interp::Arg> args{interp::ArrayRef::of(std::span<const float>(x)), interp::Value::of(cols),
                                  interp::ArrayRef::of(std::span<float>(want))};
    interp::Extent extent;
    extent.n[0] = rows;
    c.interpreter->launch(fn, extent, args, asWritten);
    std::int64_t n = rows;
    cpujit::LaunchArgs a;
    a.params = {x.data(), &cols, got.data(), &n};
    a.lengths = {x.size(), 0, got.size(), 0};
    a.extent[0] = rows;
    REQUIRE_FALSE(k->run(a, 0, rows, asWritten));
    CHECK(std::memcmp(want.data(), got.data(), rows * sizeof(float)) == 0);
  }
}

TEST_CASE("checked code reports the interpreter's errors at their source location", "[cpujit]") {
  const Compiled c = compileFile("checked.cpp", R"(#include <culift/annotate.hpp>
CULIFT_KERNEL int Divide(const int* x, int d, int i) { return x[i] / d; }
CULIFT_KERNEL int Shift(const int* x, int s, int i) { return x[i] << s; }
CULIFT_KERNEL float Past(const float* x, int i) { return x[i + 3]; }
)");
  std::vector<int> xs(8, 5);
  std::vector<int> out(8);
  std::vector<float> fs(8, 1.0f), fout(8);
  std::int64_t n = 8;
  auto run = [&](const char* name, const void* x, std::uint64_t xLength, int scalar, void* o) {
    const Function& fn = *c.module->find(name);
    cpujit::LaunchArgs a;
    const bool hasScalar = fn.signature.params.size() == 4;
    a.params = hasScalar ? std::vector<const void*>{x, &scalar, o, &n} : std::vector<const void*>{x, o, &n};
    a.lengths = hasScalar ? std::vector<std::uint64_t>{xLength, 0, 8, 0} : std::vector<std::uint64_t>{xLength, 8, 0};
    a.extent[0] = 8;
    REQUIRE(c.checked->kernel(fn));
    REQUIRE(c.jit->kernel(fn));
    CHECK_FALSE(c.jit->kernel(fn)->run(a, 0, 8));  // unchecked: no trap
    return c.checked->kernel(fn)->run(a, 0, 8);
  };
  auto e = run("Divide", xs.data(), 8, 0, out.data());
  REQUIRE(e);
  CHECK(e->output == 0);
  CHECK(e->diagnostic.message == "integer division by zero");
  CHECK(e->diagnostic.loc.line == 2);
  CHECK_FALSE(run("Divide", xs.data(), 8, 2, out.data()));
  CHECK(out[3] == 2);
  e = run("Shift", xs.data(), 8, 32, out.data());
  REQUIRE(e);
  CHECK(e->diagnostic.message == "shift count out of range");
  CHECK(e->diagnostic.loc.line == 3);
  e = run("Past", fs.data(), 8, 0, fout.data());
  REQUIRE(e);
  CHECK(e->output == 5);  // x[5 + 3] is the first index past the 8 elements
  CHECK(e->diagnostic.message.find("index out of bounds for array 'x'") == 0);
  CHECK(e->diagnostic.loc.line == 4);
}

TEST_CASE("a program says why a function has no compiled kernel", "[cpujit]") {
  const Compiled c = compileFile("partial.cpp", R"(#include <culift/annotate.hpp>
inline float twice(float v) { return v * 2.0f; }
CULIFT_KERNEL float Fine(const float* x, int i) { return twice(x[i]); }
)");
  const Function& fine = *c.module->find("Fine");
  REQUIRE(c.jit->kernel(fine));
  CHECK(c.jit->whyNot(fine).empty());
  CHECK(c.jit->whyNot(*c.module->find("twice")) == "'twice' is a device-only function");
  CHECK(c.jit->compileMilliseconds() > 0);
}

TEST_CASE("crossCheckLaunch compares the compiled code with the interpreter", "[cpujit]") {
  const Compiled c = compileFile(CULIFT_SOURCE_DIR "/examples/pearson/pearson_metrics.hpp");
  const Function& fn = *c.module->find("GramDot");
  std::vector<float> x(64), out(16);
  for (std::size_t e = 0; e < x.size(); ++e) x[e] = static_cast<float>(e % 7) * 0.37f - 1.0f;
  std::vector<interp::Arg> args{interp::ArrayRef::of(std::span<const float>(x)), interp::Value::of(16),
                                interp::ArrayRef::of(std::span<float>(out))};
  interp::Extent extent;
  extent.rank = 2;
  extent.n[0] = extent.n[1] = 4;
  const CrossCheckResult r = crossCheckLaunch(*c.interpreter, *c.jit, fn, extent, args);
  INFO(r.summary());
  CHECK(r.equal);
  CHECK(r.mismatchCount == 0);
  CHECK(out == std::vector<float>(16, 0.0f));  // the caller's arrays are left as they are
  // An index out of range (row 3 of 17 columns ends past x's 64 elements): the interpreter's
  // error, not a comparison.
  args[1] = interp::Value::of(17);
  const CrossCheckResult bad = crossCheckLaunch(*c.interpreter, *c.jit, fn, extent, args);
  CHECK_FALSE(bad.equal);
  CHECK(bad.error.find("out of bounds") != std::string::npos);
}
