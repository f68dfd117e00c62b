// The classifier on hand-built modules (no Clang) and through the front end.
#include "culift/codegen.hpp"
#include "translate_support.hpp"

using namespace culift;

namespace {

Function make(std::string name, Type ret, std::vector<std::pair<std::string, Type>> params, bool annotated = true) {
  Function f;
  f.name = std::move(name);
  f.returnType = ret;
  f.annotated = annotated;
  f.indexNames = {"i", "j", "k"};
  f.range.begin = {"unit.cpp", 1, 1};
  for (auto& [n, t] : params) {
    Var v;
    v.name = n;
    v.type = t;
    v.isParam = true;
    v.range.begin = {"unit.cpp", 1, 1};
    f.vars.push_back(v);
  }
  f.numParams = static_cast<unsigned>(f.vars.size());
  return f;
}

const Type kInt = Type::value(Scalar::I32);
const Type kFloat = Type::value(Scalar::F32);
const Type kIn = Type::pointer(Scalar::F32, true);
const Type kOutArray = Type::pointer(Scalar::F32, false);

}  // namespace

TEST_CASE("classify: index parameters choose the grid", "[classify]") {
  Module m;
  m.functions.push_back(make("one", kFloat, {{"x", kIn}, {"i", kInt}}));
  m.functions.push_back(make("two", kFloat, {{"j", kInt}, {"x", kIn}, {"i", kInt}}));
  m.functions.push_back(
      make("three", Type::value(Scalar::Void), {{"k", kInt}, {"y", kOutArray}, {"j", kInt}, {"i", kInt}}));
  m.functions.push_back(make("elem", kFloat, {{"a", kFloat}, {"b", Type::value(Scalar::F64)}}));
  m.functions.push_back(make("dev", kFloat, {{"x", kIn}, {"n", kInt}}));
  m.functions.push_back(make("voidScalar", Type::value(Scalar::Void), {{"a", kFloat}}));
  m.functions.push_back(make("helper", kFloat, {{"i", kInt}}, /*annotated=*/false));
  DiagnosticSink diags;
  classify(m, diags);
  REQUIRE_FALSE(diags.hasErrors());
  CHECK(m.functions[0].mode == IndexMode::Grid1D);
  CHECK(m.functions[1].mode == IndexMode::Grid2D);
  CHECK(m.functions[1].indexParams == std::vector<int>{2, 0});
  CHECK(m.functions[1].signature.toString() ==
        "(const float* x, float* culift_out, long long culift_rows, long long culift_cols)");
  CHECK(m.functions[2].mode == IndexMode::Grid3D);
  CHECK(m.functions[2].indexParams == std::vector<int>{3, 2, 0});
  CHECK(m.functions[2].signature.toString() ==
        "(float* y, long long culift_rows, long long culift_cols, long long culift_depth)");
  CHECK(m.functions[2].signature.params[0].role == ParamRole::WritableArray);
  CHECK(m.functions[2].signature.params[3].axis == 2);
  CHECK(m.functions[3].mode == IndexMode::ElementWise);
  CHECK(m.functions[3].signature.toString() ==
        "(const float* a, const double* b, float* culift_out, long long culift_n)");
  CHECK(m.functions[3].signature.params[1].role == ParamRole::PerElementScalar);
  // An array and a scalar, no index: element-wise over the scalar, the array the same for all.
  CHECK(m.functions[4].mode == IndexMode::ElementWise);
  CHECK(m.functions[4].signature.toString() == "(const float* x, const int* n, float* culift_out, long long culift_n)");
  CHECK(m.functions[4].signature.params[0].role == ParamRole::ReadOnlyArray);
  CHECK(m.functions[4].signature.params[1].role == ParamRole::PerElementScalar);
  CHECK(m.functions[5].mode == IndexMode::DeviceOnly);
  CHECK(m.functions[5].kernelName.empty());
  CHECK(m.functions[5].signature.params.empty());
  CHECK(m.functions[5].wideKernelName.empty());
  CHECK(m.functions[6].mode == IndexMode::DeviceOnly);  // called, not annotated: device function only
  CHECK(m.functions[6].deviceName == "helper");
  CHECK(m.functions[0].kernelName == "one_kernel");
  CHECK(m.functions[0].wideKernelName == "one_kernel64");
}

TEST_CASE("classify: misuse of index names is diagnosed", "[classify]") {
  Module m;
  m.functions.push_back(make("floatIndex", kFloat, {{"i", kFloat}}));
  m.functions.push_back(make("arrayIndex", kFloat, {{"i", kIn}}));
  m.functions.push_back(make("jOnly", kFloat, {{"x", kIn}, {"j", kInt}}));
  m.functions.push_back(make("kWithoutJ", kFloat, {{"x", kIn}, {"i", kInt}, {"k", kInt}}));
  m.functions.push_back(make("boolIndex", kFloat, {{"i", Type::value(Scalar::Bool)}}));
  DiagnosticSink diags;
  classify(m, diags);
  REQUIRE(diags.errorCount() == 5);
  CHECK_THAT(diags.diagnostics()[0].message, Catch::Contains("index parameter 'i' of 'floatIndex' must be an integer"));
  CHECK_THAT(diags.diagnostics()[1].message,
             Catch::Contains("'arrayIndex' must be an integer passed by value, not 'const float*'"));
  CHECK_THAT(diags.diagnostics()[2].message, Catch::Contains("index parameter 'j' of 'jOnly' needs 'i' too"));
  CHECK_THAT(diags.diagnostics()[3].message,
             Catch::Contains("index parameter 'k' of 'kWithoutJ' needs 'i' and 'j' too"));
  CHECK_THAT(diags.diagnostics()[4].message, Catch::Contains("'boolIndex' must be an integer"));
}

TEST_CASE("classify: duplicate lifted names are an error", "[classify]") {
  Module m;
  m.functions.push_back(make("f", kFloat, {{"a", kFloat}}));
  m.functions.push_back(make("f", kFloat, {{"a", kInt}}, false));
  DiagnosticSink diags;
  classify(m, diags);
  REQUIRE(diags.errorCount() == 1);
  CHECK_THAT(diags.diagnostics()[0].message, Catch::Contains("two lifted functions are named 'f'"));
}

TEST_CASE("classify: 64-bit and unsigned index parameters are fine", "[classify]") {
  auto r = culift::test::lift("CULIFT_KERNEL float f(const float* x, long long i, unsigned j) { return x[i + j]; }");
  const Function& f = culift::test::function(r, "f");
  CHECK(f.mode == IndexMode::Grid2D);
}

TEST_CASE("classify: loop-free kernels take four indices per thread, looping ones one", "[classify]") {
  auto r = culift::test::lift(
      "float series(float x, int n) { float s = 0; for (int k = 0; k < n; ++k) s += x; return s; }\n"
      "float twice(float x) { return x + x; }\n"
      "CULIFT_KERNEL float plain(const float* x, int i) { return twice(x[i]); }\n"
      "CULIFT_KERNEL float viaHelper(const float* x, int i) { return series(x[i], 3); }\n"
      "CULIFT_KERNEL float whileLoop(float v) { int k = 0; while (k < 3) ++k; return v * k; }\n"
      "CULIFT_KERNEL float doLoop(const float* x, int i, int j) { int k = 0; do { ++k; } while (k < 2); return x[i + j]; }\n"
      "CULIFT_KERNEL float branchy(float v, float w) { if (v < w) return v; switch ((int)w) { case 1: return 1; default: break; } return w; }\n");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  CHECK(culift::test::function(r, "plain").itemsPerThread == 4);
  CHECK(culift::test::function(r, "viaHelper").itemsPerThread == 1);  // the callee loops
  CHECK(culift::test::function(r, "whileLoop").itemsPerThread == 1);
  CHECK(culift::test::function(r, "doLoop").itemsPerThread == 1);
  CHECK(culift::test::function(r, "branchy").itemsPerThread == 4);
  CHECK(culift::test::function(r, "twice").itemsPerThread == 1);  // device-only: no kernel
}

TEST_CASE("classify: without an index, arrays are uniform and scalars per element unless marked", "[classify]") {
  Module m;
  m.functions.push_back(make("horner", kFloat, {{"coeff", kIn}, {"degree", kInt}, {"x", kFloat}}));
  m.functions.push_back(make("hornerUniform", kFloat, {{"coeff", kIn}, {"degree", kInt}, {"x", kFloat}}));
  m.functions.back().uniformNames = {"degree"};
  m.functions.push_back(make("constant", kFloat, {}));  // no parameter: one value per element
  DiagnosticSink diags;
  classify(m, diags);
  REQUIRE(diags.diagnostics().empty());
  const Function& h = m.functions[0];
  CHECK(h.mode == IndexMode::ElementWise);
  CHECK(h.kernelName == "horner_kernel");
  CHECK(h.signature.toString() ==
        "(const float* coeff, const int* degree, const float* x, float* culift_out, long long culift_n)");
  CHECK(roleName(h, h.signature.params[0]) == "uniform array");
  CHECK(roleName(h, h.signature.params[1]) == "element input");
  const Function& u = m.functions[1];
  CHECK(u.signature.toString() ==
        "(const float* coeff, int degree, const float* x, float* culift_out, long long culift_n)");
  CHECK(roleName(u, u.signature.params[1]) == "uniform");
  CHECK(m.functions[2].mode == IndexMode::ElementWise);
}

TEST_CASE("classify: an annotated function that gives no kernel is told why and what to write", "[classify]") {
  Module m;
  m.functions.push_back(make("dot3", kFloat, {{"a", kIn}, {"b", kIn}}));
  m.functions.push_back(make("scaleAll", Type::value(Scalar::Void), {{"y", kOutArray}, {"s", kFloat}}));
  m.functions.push_back(make("scratch", kFloat, {{"tmp", kOutArray}, {"x", kFloat}}));
  m.functions.push_back(make("nothing", Type::value(Scalar::Void), {{"table", kIn}, {"x", kFloat}}));
  m.functions.push_back(make("helper", kFloat, {{"a", kIn}}, /*annotated=*/false));
  DiagnosticSink diags;
  classify(m, diags);
  CHECK_FALSE(diags.hasErrors());
  for (const Function& f : m.functions) CHECK(f.mode == IndexMode::DeviceOnly);
  REQUIRE(diags.diagnostics().size() == 4);  // none for the helper, which is not annotated
  for (const Diagnostic& d : diags.diagnostics()) {
    CHECK(d.severity == Severity::Warning);
    CHECK(d.loc.valid());
    CHECK_THAT(d.message, Catch::Contains("gives no kernel: it has no index parameter (i, j or k)"));
  }
  CHECK_THAT(diags.diagnostics()[0].message, Catch::Contains("no scalar parameter to run element-wise over"));
  CHECK(diags.diagnostics()[0].hint ==
        "add an index parameter to compute one output per thread, float dot3(const float* a, const float* b, int i), "
        "or remove CULIFT_KERNEL if it is a helper");
  CHECK_THAT(diags.diagnostics()[1].message,
             Catch::Contains("writes the array 'y': an element-wise launch runs it once per element"));
  CHECK_THAT(diags.diagnostics()[1].hint,
             Catch::Contains("CULIFT_KERNEL void saxpy(float a, const float* x, float* y, int i) { y[i] = a * x[i] + "
                             "y[i]; }"));
  CHECK_THAT(diags.diagnostics()[2].hint, Catch::EndsWith("or declare the array const if the function only reads it"));
  CHECK_THAT(diags.diagnostics()[3].message, Catch::Contains("returns nothing"));
}

TEST_CASE("classify: a loop over a count without an index gets the one-output-per-call form", "[classify]") {
  auto r = culift::test::lift(
      "CULIFT_KERNEL void saxpy_loop(int n, float a, const float* x, float* y) {\n"
      "  for (int k = 0; k < n; ++k) y[k] = a * x[k] + y[k];\n"
      "}\n");
  REQUIRE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.severity == Severity::Warning);
  CHECK(d.loc.line == 2);  // after the include
  CHECK(d.message ==
        "'saxpy_loop' gives no kernel: it has no index parameter (i, j or k) and writes the array 'y': an "
        "element-wise launch runs it once per element, and every element would write the same array");
  CHECK(d.hint ==
        "culift runs the loop over 'n' as the launch, one thread per index: drop 'n' and the loop and write one "
        "output per call, void saxpy_loop(float a, const float* x, float* y, int i) { <the loop's body for one i> "
        "}, as in CULIFT_KERNEL void saxpy(float a, const float* x, float* y, int i) { y[i] = a * x[i] + y[i]; }");
  CHECK(culift::test::function(r, "saxpy_loop").mode == IndexMode::DeviceOnly);
}

TEST_CASE("classify: the warning names the function's own index names", "[classify]") {
  Module m;
  m.functions.push_back(make("scaleAll", Type::value(Scalar::Void), {{"m", kOutArray}, {"s", kFloat}}));
  m.functions.back().indexNames = {"row"};
  DiagnosticSink diags;
  classify(m, diags);
  REQUIRE(diags.diagnostics().size() == 1);
  CHECK_THAT(diags.diagnostics()[0].message, Catch::Contains("it has no index parameter ('row')"));
  CHECK_THAT(diags.diagnostics()[0].hint, Catch::Contains("float* y, int row) { y[row] = a * x[row] + y[row]; }"));
}
