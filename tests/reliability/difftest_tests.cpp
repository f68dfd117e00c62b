// The differential tester in CI: a fixed-seed batch of generated programs on the native
// (-O0 with UBSan, -O2) and interpreter legs, every kernel module compiled by NVRTC; plus the
// generator's own properties (deterministic, covers the subset, boundary arguments) and the
// reducer and regression-file machinery.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>

#include "campaign.hpp"
#include "catch.hpp"
#include "compiled_leg.hpp"
#include "culift/translate.hpp"
#include "gpu_skip.hpp"
#include "native_leg.hpp"
#include "printer.hpp"
#include "reducer.hpp"
#include "regression_file.hpp"
#include "type_rules.hpp"

using namespace culift;
using namespace culift::rel;

namespace {
constexpr std::uint64_t kCiSeed = 20261130;
constexpr unsigned kCiPrograms = 300;
}  // namespace

TEST_CASE("the generator is deterministic and seeds differ", "[difftest][generator]") {
  const Generated a = generateProgram(7, 3), b = generateProgram(7, 3), c = generateProgram(8, 3);
  CHECK(a.spec.source() == b.spec.source());
  CHECK(a.spec.argSets.size() == b.spec.argSets.size());
  CHECK(a.spec.argSets[0].values == b.spec.argSets[0].values);
  CHECK(a.spec.source() != c.spec.source());
}

TEST_CASE("generated programs cover every type, operator, statement form and index mode", "[difftest][generator]") {
  std::string all;
  std::set<std::string> modes;
  for (unsigned k = 0; k < kCiPrograms; ++k) {
    const Generated g = generateProgram(kCiSeed, k);
    all += g.spec.functions;
    unsigned axes = 0;
    for (const ParamSpec& p : g.spec.params) axes += p.axis >= 0;
    modes.insert(std::to_string(axes) + (g.spec.returnType == Scalar::Void ? "v" : "r"));
  }
  for (const char* needle : {"bool ",
                             "signed char ",
                             "unsigned char ",
                             "short ",
                             "unsigned short ",
                             "int ",
                             "unsigned ",
                             "long long ",
                             "unsigned long long ",
                             "float ",
                             "double ",
                             "std::int8_t",
                             "std::uint16_t",
                             " + ",
                             " - ",
                             " * ",
                             " / ",
                             " % ",
                             " << ",
                             " >> ",
                             " & ",
                             " | ",
                             " ^ ",
                             "(~",
                             "(!",
                             "(-",
                             " && ",
                             " || ",
                             " < ",
                             " <= ",
                             " > ",
                             " >= ",
                             " == ",
                             " != ",
                             " ? ",
                             " += ",
                             " -= ",
                             " *= ",
                             " /= ",
                             " %= ",
                             " <<= ",
                             " >>= ",
                             " &= ",
                             " |= ",
                             " ^= ",
                             "++",
                             "--",
                             "if (",
                             "} else {",
                             "for (",
                             "while (",
                             "do {",
                             "} while (",
                             "switch (",
                             "case ",
                             "default:",
                             "break;",
                             "continue;",
                             "return ",
                             "std::sqrt(",
                             "std::sin(",
                             "std::pow(",
                             "std::fma(",
                             "sinf(",
                             "std::min(",
                             "std::max(",
                             "std::clamp(",
                             "std::abs(",
                             "std::isnan(",
                             "_h0(",
                             "_to_",
                             "] = {",
                             "const ",
                             "CULIFT_KERNEL void"}) {
    INFO(needle);
    CHECK(all.find(needle) != std::string::npos);
  }
  // Templates, constexpr, references, range for, lambdas.
  for (const char* needle : {"template <int N> inline ",
                             "template <int N> struct ",
                             ">::eval(",
                             "template <typename T> inline T ",
                             "<long>(",
                             "if constexpr (N ",
                             "constexpr int ",
                             "  float& r",
                             "  const int& r",
                             "const float& ",
                             "& r)",
                             "for (float& e",
                             "for (double e",
                             " : arr",
                             "auto f",
                             "[&](",
                             "[=](",
                             "](auto la",
                             ") -> ",
                             "_apply<",
                             "_applyr<"}) {
    INFO(needle);
    CHECK(all.find(needle) != std::string::npos);
  }
  // Value structs: definitions with default member initializers, constructors, operators, static
  // and member functions; locals initialized every way, bindings, arrays of structs (local, range
  // for, a kernel's records read and written), helpers taking and returning structs.
  for (const char* needle : {"struct p", "() = default;", " operator+(const ", " operator==(const ",
                             "& operator+=(const ", ") const {", "::make(", "{.m", "auto [b", "_S0 sa", "for (p",
                             "_S0& q", "unsigned long long& ck)", ".mm0(", ".mm1(", " += p", "ra0[", "ra0->", "ro0["}) {
    INFO(needle);
    CHECK(all.find(needle) != std::string::npos);
  }
  // Grid1D/2D/3D, each returning a value and as void kernels writing outputs; element-wise.
  for (const char* m : {"0r", "1r", "2r", "3r", "1v", "2v", "3v"}) {
    INFO(m);
    CHECK(modes.count(m));
  }
}

TEST_CASE("argument sets include the boundary values of every type", "[difftest][generator]") {
  std::vector<ParamSpec> params = {{"a", Scalar::I32}, {"b", Scalar::F32}, {"c", Scalar::U64}, {"d", Scalar::F64}};
  const std::vector<ArgSet> sets = generateArgSets(params, 99, 400);
  std::set<std::int64_t> ints;
  bool nan = false, inf = false, denormal = false, negZero = false, u64max = false;
  for (const ArgSet& s : sets) {
    std::int32_t i;
    std::memcpy(&i, s.values[0].data(), 4);
    ints.insert(i);
    float f;
    std::memcpy(&f, s.values[1].data(), 4);
    nan |= std::isnan(f);
    inf |= std::isinf(f);
    denormal |= std::fpclassify(f) == FP_SUBNORMAL;
    negZero |= f == 0 && std::signbit(f);
    std::uint64_t u;
    std::memcpy(&u, s.values[2].data(), 8);
    u64max |= u == std::numeric_limits<std::uint64_t>::max();
  }
  for (std::int64_t v : {std::int64_t{INT32_MIN}, std::int64_t{INT32_MIN} + 1, std::int64_t{-1}, std::int64_t{0},
                         std::int64_t{1}, std::int64_t{INT32_MAX}}) {
    INFO(v);
    CHECK(ints.count(v));
  }
  CHECK(nan);
  CHECK(inf);
  CHECK(denormal);
  CHECK(negZero);
  CHECK(u64max);
}

TEST_CASE("index parameters stay inside the launch extent", "[difftest][generator]") {
  for (unsigned k = 0; k < 100; ++k) {
    const Generated g = generateProgram(3, k);
    unsigned rank = 0;
    for (const ParamSpec& p : g.spec.params) rank += p.axis >= 0;
    for (const ArgSet& a : g.spec.argSets)
      for (std::size_t p = 0; p < g.spec.params.size(); ++p)
        if (g.spec.params[p].axis >= 0) {
          std::uint64_t v = 0;
          std::memcpy(&v, a.values[p].data(), a.values[p].size());
          CHECK(v < kAxisExtent[rank][g.spec.params[p].axis]);
        }
  }
}

TEST_CASE("the reducer keeps a property while shrinking the program", "[difftest][reducer]") {
  // Find a program with a switch, then reduce it while "still has a switch statement" holds.
  for (unsigned k = 0; k < 50; ++k) {
    Generated g = generateProgram(11, k);
    if (g.spec.functions.find("switch (") == std::string::npos) continue;
    const std::size_t before = g.spec.functions.size();
    const ReduceStats stats = reduceProgram(g, [](const ProgramSpec& p) {
      return p.functions.find("switch (") != std::string::npos;
    });
    CHECK(stats.accepted > 0);
    CHECK(g.spec.functions.size() < before);
    CHECK(g.spec.functions.find("switch (") != std::string::npos);
    CHECK(g.spec.functions.find("return") != std::string::npos);  // the final return stays
    return;
  }
  FAIL("no generated program had a switch");
}

TEST_CASE("the reducer keeps lambdas, references, range for and templates well-formed", "[difftest][reducer]") {
  // Reduced while the program still has two of the forms: every candidate the reducer keeps
  // must still be C++ culift translates (a lambda kept while called, an array while a range for
  // or a reference names it, a helper while called, an if constexpr's branch in the template).
  const std::pair<const char*, const char*> forms[] = {{"auto f", " : arr"},
                                                       {"if constexpr (N ", "& r"},
                                                       {"auto [b", "_S0 sv"},
                                                       {"ra0[", "_S0 sa"}};
  for (const auto& [first, second] : forms) {
    unsigned reduced = 0;
    for (unsigned k = 0; k < 300 && reduced < 2; ++k) {
      Generated g = generateProgram(kCiSeed, k);
      auto keeps = [&](const ProgramSpec& p) {
        return p.functions.find(first) != std::string::npos && p.functions.find(second) != std::string::npos;
      };
      if (!keeps(g.spec)) continue;
      const std::size_t before = g.spec.functions.size();
      const ReduceStats stats = reduceProgram(g, keeps, 400);
      CHECK(stats.accepted > 0);
      CHECK(g.spec.functions.size() < before);
      TranslateOptions o;
      o.compilerArgs = {"-I" CULIFT_INCLUDE_DIR, "-std=c++20"};
      TranslateResult r = translateSource(g.spec.source(), "reduced.cpp", o);
      INFO(first << " / " << second << "\n" << r.formatDiagnostics() << g.spec.source());
      CHECK(r.ok());
      ++reduced;
    }
    INFO(first << " / " << second);
    CHECK(reduced == 2);
  }
}

TEST_CASE("regression files round-trip", "[difftest][regression]") {
  // A program whose kernel takes an array of structs: its parameter line carries the struct and
  // the elements of a record.
  unsigned index = 0;
  while (generateProgram(5, index).spec.functions.find("* ra0") == std::string::npos) ++index;
  const Generated g = generateProgram(5, index);
  const std::string text = writeRegression(g.spec, "a title", "what differed\nsecond line");
  std::string error;
  const auto back = readRegression(text, "r", &error);
  INFO(error);
  REQUIRE(back);
  CHECK(back->kernel == g.spec.kernel);
  CHECK(back->returnType == g.spec.returnType);
  REQUIRE(back->params.size() == g.spec.params.size());
  for (std::size_t k = 0; k < back->params.size(); ++k) {
    CHECK(back->params[k].name == g.spec.params[k].name);
    CHECK(back->params[k].type == g.spec.params[k].type);
    CHECK(back->params[k].array == g.spec.params[k].array);
    CHECK(back->params[k].writable == g.spec.params[k].writable);
    CHECK(back->params[k].axis == g.spec.params[k].axis);
    CHECK(back->params[k].record == g.spec.params[k].record);
    CHECK(back->params[k].recordType == g.spec.params[k].recordType);
  }
  CHECK(std::any_of(back->params.begin(), back->params.end(), [](const ParamSpec& q) { return q.record > 0; }));
  CHECK(back->argSets.size() == g.spec.argSets.size());
  CHECK(back->argSets[0].values == g.spec.argSets[0].values);
  CHECK_FALSE(readRegression("// culift-kernel: i32 f\n", "r", &error));
}

TEST_CASE("a fixed-seed batch agrees on every leg and compiles with NVRTC", "[difftest][ci]") {
  if (hostCompiler().empty()) {
    WARN("skipped: no host C++ compiler (g++) for the native legs");
    return;
  }
  CampaignOptions o;
  o.seed = kCiSeed;
  o.count = kCiPrograms;
  o.batchSize = 75;
  o.oracle.includeDir = CULIFT_INCLUDE_DIR;
  o.oracle.ubsan = true;  // the -O0 leg proves the generated code free of undefined behaviour (a report is a finding)
  o.reduce = false;       // CI reports; campaigns reduce (scripts/difftest-campaign.sh)
  // The oracle's teeth: every deliberate interpreter bug must be caught by this same batch —
  // but NaNCanonical, which changes only NaN payloads that generated programs rarely carry to an
  // output; the oracle's NaN test plants it in a program made for it.
  for (unsigned b = 1; b <= interp::kPlantedBugs; ++b)
    if (static_cast<interp::PlantedBug>(b) != interp::PlantedBug::NaNCanonical)
      o.oracle.plantedBugs.push_back(static_cast<interp::PlantedBug>(b));
  const unsigned planted = static_cast<unsigned>(o.oracle.plantedBugs.size());
  const CampaignResult r = runCampaign(o);
  std::string findings;
  for (const Finding& f : r.findings)
    findings += std::string(name(f.kind)) + ": " + f.program + ": " + f.detail.substr(0, 1500) + "\n";
  INFO(findings);
  const LegCounts& t = r.totals;
  std::printf(
      "difftest CI batch (seed %llu): %u programs, %u argument sets; native -O0 %u, -O2 %u, interpreter %u; "
      "NVRTC %u module(s) / %u kernel(s), %u with loop-plan entries (%u reassociating); %zu finding(s); %.1f s\n"
      "  generated: %s\n  results depending on the arguments: %u of %u programs\n",
      static_cast<unsigned long long>(kCiSeed), t.programs, t.calls, t.nativeO0, t.nativeO2, t.interpreted,
      t.nvrtcModules, t.nvrtcKernels, t.planned, t.reassociating, r.findings.size(), t.seconds,
      r.generated.summary().c_str(), t.argDependent, t.programs);
  CHECK(t.programs == kCiPrograms);
  CHECK(t.nativeO0 == kCiPrograms);
  CHECK(t.nativeO2 == kCiPrograms);
  CHECK(t.interpreted == kCiPrograms);
  CHECK(t.calls == kCiPrograms * 3);
  if (!t.nvrtcSkipped.empty()) culift::test::noNvrtc(t.nvrtcSkipped);
  else CHECK(t.nvrtcKernels >= kCiPrograms);
  // The generator gives a share of kernels the shape the loop planner lifts; their entries are
  // compiled with the rest (and run on the GPU leg).
  if (t.nvrtcSkipped.empty()) CHECK(t.planned >= kCiPrograms / 20);
  if (t.nvrtcSkipped.empty()) CHECK(t.reassociating >= 3);
  // Each reduction shape the generator makes gets its plan in this batch: rows reassociated, column
  // loops, min/max loops, stencils in 2-D and 3-D (the generator's walk windows: their registers'
  // entry first, the cache walk beside it; in 3-D the form that streams its planes, two rows a
  // thread, and the same in narrow tiles), scans, batched contractions and convolutions.
  std::string plans;
  for (const auto& [plan, n] : t.plans) plans += (plans.empty() ? "" : "; ") + plan + " " + std::to_string(n);
  std::printf("  plans: %s\n", plans.c_str());
  if (t.nvrtcSkipped.empty())
    for (const char* plan :
         {"row reduction (reassociating)", "column reduction", "min/max row reduction (exact order)", "stencil",
          "stencil, 2.5-D blocking, windows in registers", "stencil, planes streamed, two rows a thread",
          "stencil, planes streamed, narrow tiles", "scan", "batched tiled contraction", "convolution"}) {
      INFO(plan << " among: " << plans);
      CHECK(t.plans.count(plan) == 1);
    }
  CHECK(r.findings.empty());
  CHECK(r.generated.programs == kCiPrograms);
  // Most programs compute something of their arguments (the rest fold constants only).
  CHECK(t.argDependent >= kCiPrograms * 3 / 4);
  // The planted bugs (each live: interp_planted_bugs_tests.cpp shows a program it breaks): this
  // batch must catch every one, and prints the kill rate. A bug it stops catching means the
  // generator lost a shape that exercised it, or a value that no longer reaches the checksum.
  REQUIRE(r.planted.size() == planted);
  unsigned caught = 0;
  for (const PlantedBugReport& b : r.planted) {
    caught += b.caught > 0;
    std::printf("  planted bug %-28s caught by %3u program(s)%s%s\n", std::string(name(b.bug)).c_str(), b.caught,
                b.caught ? ", first " : "", b.firstProgram.c_str());
  }
  std::printf("planted interpreter bugs caught: %u of %u (%.0f %%)\n", caught, planted, 100.0 * caught / planted);
  for (const PlantedBugReport& b : r.planted) {
    INFO("planted bug " << name(b.bug) << " was not caught by the CI batch");
    CHECK(b.caught > 0);
  }
  CHECK(caught == planted);
}

TEST_CASE("generated programs fold every value into what is compared", "[difftest][generator]") {
  unsigned voids = 0;
  for (unsigned k = 0; k < 60; ++k) {
    const Generated g = generateProgram(kCiSeed, k);
    const std::string& text = g.spec.functions;
    INFO(text);
    CHECK(text.find("culift_ck_mix(unsigned long long h") != std::string::npos);
    CHECK(text.find("unsigned long long ck = ") != std::string::npos);
    if (g.spec.returnType == Scalar::Void) {
      ++voids;
      REQUIRE_FALSE(g.spec.params.empty());
      CHECK(g.spec.params.back().name == "cko");
      CHECK(g.spec.params.back().writable);
      CHECK(text.find("] = culift_ck_final(ck);") != std::string::npos);
    } else {
      CHECK(text.find("ck = culift_ck_mix") != std::string::npos);
    }
  }
  CHECK(voids > 0);
  // Without the checksum, the same seed prints no fold.
  GenOptions plain;
  plain.checksum = false;
  CHECK(generateProgram(kCiSeed, 1, plain).spec.functions.find("_mix") == std::string::npos);
}

TEST_CASE("the checksum folds floating values exactly and NaNs as one value", "[difftest][generator]") {
  // A kernel that copies its argument into a local: the printer folds the local and returns the hash.
  for (const Scalar t : {Scalar::F32, Scalar::F64}) {
    GProgram tree;
    tree.name = "fold";
    tree.checksum = true;
    GFunction k;
    k.name = "fold_kernel";
    k.kernel = true;
    k.returnType = Scalar::U64;
    k.vars.push_back(GVar{"s0", t, 0, false, true, true, false, -1});
    k.numParams = 1;
    auto ret = std::make_shared<GStmt>();  // return 0: only the argument's fold varies the hash
    ret->kind = GStmtKind::Return;
    ret->a = std::make_shared<GExpr>();
    ret->a->kind = GExprKind::Lit;
    ret->a->type = Scalar::U64;
    auto decl = std::make_shared<GStmt>();
    decl->kind = GStmtKind::Decl;
    decl->var = 1;
    decl->a = std::make_shared<GExpr>();
    decl->a->kind = GExprKind::Var;
    decl->a->type = t;
    decl->a->var = 0;
    k.vars.push_back(GVar{"v1", t, 0, false, false, true, false, -1});
    k.body = {decl, ret};
    tree.functions.push_back(k);
    ProgramSpec spec;
    refreshSpec(tree, spec);
    TranslateOptions o;
    o.compilerArgs = {"-I" CULIFT_INCLUDE_DIR, "-std=c++20"};
    const std::string source = kProgramIncludes + spec.functions;
    TranslateResult r = translateSource(source, "fold.cpp", o);
    INFO(r.formatDiagnostics() << source);
    REQUIRE(r.ok());
    auto program = interp::Program::compile(r.module);
    const Function& fn = *r.module->find("fold_kernel");
    auto hashOf = [&](double x) {
      std::vector<interp::Arg> args;
      args.emplace_back(t == Scalar::F32 ? interp::Value::of(static_cast<float>(x)) : interp::Value::of(x));
      return program->call(fn, args).u;
    };
    const double tiny = t == Scalar::F32 ? std::numeric_limits<float>::denorm_min()
                                         : std::numeric_limits<double>::denorm_min();
    const double big = t == Scalar::F32 ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    const double one = 1.0, next = t == Scalar::F32 ? std::nextafter(1.0f, 2.0f) : std::nextafter(1.0, 2.0);
    const double values[] = {0.0, -0.0, one,  next, -one,   tiny,     -tiny,    2 * tiny,       big,      -big,
                             0.5, 3.0,  1e-3, 1e30, -1e-30, 0x1p-100, 0x1p+100, 1.5 * 0x1p-126, INFINITY, -INFINITY};
    std::set<std::uint64_t> seen;
    for (double x : values) {
      INFO(x);
      CHECK(seen.insert(hashOf(x)).second);  // every value its own hash
    }
    const std::uint64_t nan = hashOf(std::nan(""));
    CHECK(hashOf(-std::nan("")) == nan);  // NaN: one value, whatever its sign and payload
    CHECK(hashOf(std::nan("0x5")) == nan);
    CHECK_FALSE(seen.count(nan));
  }
}

TEST_CASE("undefined behaviour in the -O0 leg is a finding with the sanitizer's report", "[difftest][oracle]") {
  if (hostCompiler().empty()) {
    WARN("skipped: no host C++ compiler (g++) for the native legs");
    return;
  }
  // Signed overflow planted on purpose, beside a program without any: the UBSan build reports
  // the overflow as a finding that names the program, the argument set and the operation, and
  // the batch goes on.
  ProgramSpec ub;
  ub.name = "ub";
  ub.kernel = "ub_kernel";
  ub.returnType = Scalar::I32;
  ub.params = {{"a", Scalar::I32}};
  ub.functions = "CULIFT_KERNEL int ub_kernel(int a) {\n  int b = a * 2;\n  return b + 1;\n}\n";
  const std::int32_t values[] = {5, 1500000000, 7};
  for (std::int32_t v : values) {
    ArgSet a;
    a.values.emplace_back(4);
    std::memcpy(a.values[0].data(), &v, 4);
    ub.argSets.push_back(a);
  }
  ProgramSpec fine = ub;
  fine.name = "fine";
  fine.kernel = "fine_kernel";
  fine.functions = "CULIFT_KERNEL int fine_kernel(int a) { return a / 3; }\n";
  OracleOptions o;
  o.includeDir = CULIFT_INCLUDE_DIR;
  o.nvrtc = false;
  o.nativeO2 = false;
  o.interpreter = false;
  o.ubsan = true;
  const OracleReport r = runOracle({ub, fine}, o);
  INFO(r.summary());
  REQUIRE(r.findings.size() == 1);
  const Finding& f = r.findings[0];
  CHECK(f.kind == FindingKind::UndefinedBehaviour);
  CHECK(f.program == "ub");
  CHECK(f.argSet == 1);
  CHECK(f.detail.find("runtime error: signed integer overflow: 1500000000 * 2 cannot be represented in type 'int'") !=
        std::string::npos);
  CHECK(f.detail.find("int b = a * 2;") != std::string::npos);  // the source line
  CHECK(r.counts.calls == 6);
  // Without UBSan the same batch has nothing to report: the finding is the sanitizer's.
  o.ubsan = false;
  CHECK(runOracle({ub, fine}, o).findings.empty());
}

TEST_CASE("native -O0 and the interpreter compare NaN payloads, -O2 and the GPU do not", "[difftest][oracle]") {
  const float a = -std::nanf("5"), b = std::nanf("5"), c = std::nanf("6");
  std::uint8_t x[4], y[4], z[4];
  std::memcpy(x, &a, 4);
  std::memcpy(y, &b, 4);
  std::memcpy(z, &c, 4);
  CHECK(sameValue(Scalar::F32, x, z));  // NaNBits::Any, the default: the GPU leg, -O0 vs -O2
  CHECK_FALSE(sameValue(Scalar::F32, x, z, NaNBits::Payload));
  CHECK(sameValue(Scalar::F32, x, y, NaNBits::Payload));  // the sign is not compared
  if (hostCompiler().empty()) {
    WARN("skipped: no host C++ compiler (g++) for the native legs");
    return;
  }
  // A planted NaN-bit difference: the interpreter with NaNCanonical gives the canonical NaN where
  // the host keeps the operand's payload. The oracle's rule for the -O0 leg (payloads) catches
  // it; compared with NaNs as equal (the rule against -O2, and the GPU's) it would pass.
  ProgramSpec p;
  p.name = "nan";
  p.kernel = "nan_kernel";
  p.returnType = Scalar::F32;
  p.params = {{"a", Scalar::F32}, {"b", Scalar::F32}};
  p.functions = "CULIFT_KERNEL float nan_kernel(float a, float b) { return a / b; }\n";
  ArgSet set;
  set.values = {std::vector<std::uint8_t>(x, x + 4), std::vector<std::uint8_t>(4)};
  const float one = 1.0f;
  std::memcpy(set.values[1].data(), &one, 4);
  p.argSets = {set};
  OracleOptions o;
  o.includeDir = CULIFT_INCLUDE_DIR;
  o.nvrtc = false;
  o.plantedBugs = {interp::PlantedBug::NaNCanonical};
  const OracleReport exact = runOracle({p}, o);
  INFO(exact.summary());
  CHECK(exact.findings.empty());  // the real interpreter keeps the NaN's sign and payload
  REQUIRE(exact.planted.size() == 1);
  CHECK(exact.planted[0].caught == 1);
  o.interpreterNaNs = NaNBits::Any;
  const OracleReport any = runOracle({p}, o);
  REQUIRE(any.planted.size() == 1);
  CHECK(any.planted[0].caught == 0);
}

TEST_CASE("NaN operands reach the result with the same bits natively and in the interpreter", "[difftest][oracle]") {
  if (hostCompiler().empty()) {
    WARN("skipped: no host C++ compiler (g++) for the native legs");
    return;
  }
  // The ground of the exact rule: every arithmetic operation, in both types, on two NaNs of
  // different sign and payload, a NaN and a number, and an invalid operation.
  std::vector<ProgramSpec> programs;
  for (const Scalar t : {Scalar::F32, Scalar::F64}) {
    const std::string ty = t == Scalar::F32 ? "float" : "double";
    for (const char* op : {"+", "-", "*", "/"}) {
      ProgramSpec p;
      p.name = std::string("nan") + (t == Scalar::F32 ? "f" : "d") + std::to_string(programs.size());
      p.kernel = p.name + "_kernel";
      p.returnType = t;
      p.params = {{"a", t}, {"b", t}};
      p.functions = "CULIFT_KERNEL " + ty + " " + p.kernel + "(" + ty + " a, " + ty + " b) { return a " + op +
                    " b; }\n";
      const double pairs[][2] = {{std::nan("1"), -std::nan("2")},
                                 {-std::nan("2"), std::nan("1")},
                                 {std::nan("3"), 1.0},
                                 {2.0, -std::nan("4")},
                                 {INFINITY, INFINITY},
                                 {0.0, INFINITY}};
      for (const auto& [x, y] : pairs) {
        ArgSet set;
        for (double v : {x, y}) {
          std::vector<std::uint8_t> bytes(byteSize(t));
          if (t == Scalar::F32) {
            const float f = static_cast<float>(v);
            std::memcpy(bytes.data(), &f, 4);
          } else {
            std::memcpy(bytes.data(), &v, 8);
          }
          set.values.push_back(bytes);
        }
        p.argSets.push_back(set);
      }
      programs.push_back(p);
    }
  }
  OracleOptions o;
  o.includeDir = CULIFT_INCLUDE_DIR;
  o.nvrtc = false;
  const OracleReport r = runOracle(programs, o);
  INFO(r.summary());
  CHECK(r.counts.interpreted == programs.size());
  CHECK(r.findings.empty());
}

TEST_CASE("the oracle reports what it is built to catch", "[difftest][oracle]") {
  if (hostCompiler().empty()) {
    WARN("skipped: no host C++ compiler (g++) for the native legs");
    return;
  }
  // Signed overflow planted on purpose: the interpreter must refuse it, and the comparison
  // must name the program and the arguments.
  ProgramSpec p;
  p.name = "planted";
  p.kernel = "planted_kernel";
  p.returnType = Scalar::I32;
  p.params = {{"a", Scalar::I32}};
  p.functions = "CULIFT_KERNEL int planted_kernel(int a) { return a + 1; }\n";
  p.argSets = generateArgSets(p.params, 1, 1);
  const std::int32_t max = INT32_MAX, one = 1;
  p.argSets.push_back(p.argSets[0]);
  std::memcpy(p.argSets[0].values[0].data(), &one, 4);
  std::memcpy(p.argSets[1].values[0].data(), &max, 4);
  OracleOptions o;
  o.includeDir = CULIFT_INCLUDE_DIR;
  o.nvrtc = false;
  const OracleReport r = runOracle({p}, o);
  INFO(r.summary());
  CHECK(r.counts.interpreted == 1);
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].kind == FindingKind::InterpreterError);
  CHECK(r.findings[0].argSet == 1);
  CHECK(r.findings[0].detail.find("2147483647") != std::string::npos);
}

TEST_CASE("the compiled CPU leg agrees with the interpreter and catches its planted bugs", "[difftest][ci][compiled]") {
  std::string why;
  if (!cpujit::available(&why)) {
    WARN("skipped: no JIT for this host (" << why << ")");
    return;
  }
  // The CI seed's first programs on the compiled leg alone: every kernel launched over its
  // extent by checked and unchecked code, compared with the interpreter's launch bit for bit.
  constexpr unsigned kPrograms = 150;
  CampaignOptions o;
  o.seed = kCiSeed;
  o.count = kPrograms;
  o.batchSize = 75;
  o.oracle.includeDir = CULIFT_INCLUDE_DIR;
  o.oracle.nativeO0 = o.oracle.nativeO2 = o.oracle.interpreter = o.oracle.nvrtc = false;
  o.oracle.compiled = true;
  o.reduce = false;
  for (unsigned b = 1; b <= cpujit::kPlantedBugs; ++b)
    o.oracle.compiledPlantedBugs.push_back(static_cast<cpujit::PlantedBug>(b));
  const CampaignResult r = runCampaign(o);
  std::string findings;
  for (const Finding& f : r.findings)
    findings += std::string(name(f.kind)) + ": " + f.program + ": " + f.detail.substr(0, 1500) + "\n";
  INFO(findings);
  const LegCounts& t = r.totals;
  std::printf(
      "difftest compiled CPU leg (seed %llu): %u programs, %u launched by compiled code (%u reassociating), "
      "%u not lowered%s; %zu finding(s); %.1f s\n",
      static_cast<unsigned long long>(kCiSeed), t.programs, t.compiled, t.compiledReassociating, t.notLowered,
      t.firstNotLowered.empty() ? "" : (" (first: " + t.firstNotLowered + ")").c_str(), r.findings.size(), t.seconds);
  CHECK(t.programs == kPrograms);
  CHECK(t.compiled + t.notLowered == kPrograms);
  CHECK(t.compiled >= kPrograms * 9 / 10);  // the backend lowers the generated subset
  CHECK(t.compiledReassociating >= 1);
  CHECK(t.interpreted == 0);                   // the interpreter leg (calls) did not run, only its launches
  CHECK(t.compiledLaunches >= kPrograms * 3);  // every argument set
  CHECK(r.findings.empty());
  REQUIRE(r.compiledPlanted.size() == cpujit::kPlantedBugs);
  for (const PlantedBugReport& b : r.compiledPlanted) {
    std::printf("  planted bug %-36s caught by %3u program(s)%s%s\n", name(b).c_str(), b.caught,
                b.caught ? ", first " : "", b.firstProgram.c_str());
    INFO("planted bug " << name(b) << " was not caught: " << b.firstDetail);
    CHECK(b.caught > 0);
  }
}

namespace {

// An element-wise program of one int parameter `a` over `values` (one argument set each).
ProgramSpec elementWise(const std::string& name, const std::string& body, std::initializer_list<std::int32_t> values) {
  ProgramSpec p;
  p.name = name;
  p.kernel = name + "_kernel";
  p.returnType = Scalar::I32;
  p.params = {{"a", Scalar::I32}};
  p.functions = "CULIFT_KERNEL int " + p.kernel + "(int a) { " + body + " }\n";
  for (std::int32_t v : values) {
    ArgSet a;
    a.values.emplace_back(4);
    std::memcpy(a.values[0].data(), &v, 4);
    p.argSets.push_back(a);
  }
  return p;
}

}  // namespace

TEST_CASE("the compiled leg compares launches, expects checked code to fail where the interpreter does",
          "[difftest][oracle][compiled]") {
  std::string why;
  if (!cpujit::available(&why)) {
    WARN("skipped: no JIT for this host (" << why << ")");
    return;
  }
  const ProgramSpec shift = elementWise("sh", "return a >> 1;", {-8, 5, -1});
  const ProgramSpec divide = elementWise("dv", "return 100 / a;", {4, 0, -3});  // a division by zero
  TranslateOptions to;
  to.compilerArgs = {"-I" CULIFT_INCLUDE_DIR, "-std=c++20"};
  auto translated = [&](const ProgramSpec& p) {
    TranslateResult r = translateSource(p.source(), p.name + ".cpp", to);
    INFO(r.formatDiagnostics());
    REQUIRE(r.ok());
    return r.module;
  };
  const auto shiftModule = translated(shift), divideModule = translated(divide);
  const auto shiftInterp = interp::Program::compile(shiftModule);
  const auto divideInterp = interp::Program::compile(divideModule);
  for (const bool checked : {true, false}) {
    INFO((checked ? "checked" : "unchecked"));
    const auto jit = cpujit::Program::compile(shiftModule, cpujit::Options{.checked = checked});
    const CompiledLegResult same = runCompiledLeg(*shiftInterp, *jit, *shiftModule->find(shift.kernel), shift);
    CHECK(same.lowered);
    CHECK(same.launches == 3);
    CHECK(same.interpreterFailed == 0);
    CHECK(same.mismatch.empty());
    // The interpreter reports 100 / 0 (element 1 of the launch): checked code fails too, and
    // unchecked code, whose value C++ does not define there, is not compared.
    const auto jitDivide = cpujit::Program::compile(divideModule, cpujit::Options{.checked = checked});
    const CompiledLegResult failed = runCompiledLeg(*divideInterp, *jitDivide, *divideModule->find(divide.kernel),
                                                    divide);
    CHECK(failed.lowered);
    CHECK(failed.launches == 3);           // one per argument set
    CHECK(failed.interpreterFailed == 3);  // 0 is element 1, 2 or 0 of each launch
    CHECK(failed.mismatch.empty());
  }
  // A planted bug in the lowering is a mismatch naming the element, the code and the launch.
  const auto buggy = cpujit::Program::compile(
      shiftModule, cpujit::Options{.checked = false, .plantedBug = cpujit::PlantedBug::SignedShiftRightLogical});
  const CompiledLegResult wrong = runCompiledLeg(*shiftInterp, *buggy, *shiftModule->find(shift.kernel), shift);
  INFO(wrong.mismatch);
  CHECK(wrong.mismatch.find("unchecked, argument set 0") == 0);
  CHECK(wrong.mismatch.find("extent 64x1x1") != std::string::npos);
  // Through the oracle: no finding from the real code, the planted bug caught by the shift.
  OracleOptions o;
  o.includeDir = CULIFT_INCLUDE_DIR;
  o.nativeO0 = o.nativeO2 = o.interpreter = o.nvrtc = false;
  o.compiled = true;
  o.compiledPlantedBugs = {cpujit::PlantedBug::SignedShiftRightLogical};
  const OracleReport r = runOracle({shift, divide}, o);
  INFO(r.summary());
  CHECK(r.findings.empty());
  CHECK(r.counts.compiled == 2);
  REQUIRE(r.compiledPlanted.size() == 1);
  CHECK(r.compiledPlanted[0].caught == 1);
  CHECK(r.compiledPlanted[0].firstProgram == "sh");
}
