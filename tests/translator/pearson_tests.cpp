// The seed tutorial's six functions, lifted from examples/pearson/pearson_metrics.hpp.
#include <chrono>

#include "translate_support.hpp"

using namespace culift;
using culift::test::body;
using culift::test::function;

namespace {

const std::string kPearson = std::string(CULIFT_SOURCE_DIR) + "/examples/pearson/pearson_metrics.hpp";

const TranslateResult& pearson() {
  static const TranslateResult result = translate(kPearson);
  return result;
}

std::string roles(const Function& f) {
  std::string s;
  for (const KernelParam& p : f.signature.params) s += std::string(s.empty() ? "" : ", ") + std::string(name(p.role));
  return s;
}

}  // namespace

TEST_CASE("the six Pearson functions translate with their index modes", "[pearson]") {
  const TranslateResult& r = pearson();
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  CHECK(r.diagnostics.empty());
  // The six, then the fused kernel of the row sum and the row sum of squares (the same rows).
  REQUIRE(r.module->functions.size() == 7);
  CHECK(r.module->kernels().size() == 7);
  const Function& fused = r.module->functions.back();
  CHECK(fused.name == "RowSum_RowSumSq_fused");
  CHECK(fused.fusedOf == std::vector<std::string>{"RowSum", "RowSumSq"});
  CHECK(fused.mode == IndexMode::Grid1D);
  CHECK(fused.loopPlan == function(r, "RowSum").loopPlan);
  CHECK(function(r, "RowSum").mode == IndexMode::Grid1D);
  CHECK(function(r, "RowSumSq").mode == IndexMode::Grid1D);
  CHECK(function(r, "GramDot").mode == IndexMode::Grid2D);
  CHECK(function(r, "CorrelationCell").mode == IndexMode::Grid2D);
  CHECK(function(r, "DistanceCell").mode == IndexMode::Grid2D);
  CHECK(function(r, "PearsonClamp").mode == IndexMode::ElementWise);
  for (const Function& f : r.module->functions) {
    CHECK(f.annotated);
    CHECK(f.deviceName == f.name);
    CHECK(f.kernelName == f.name + "_kernel");
    CHECK(f.wideKernelName == f.name + "_kernel64");
    CHECK(f.returnType == Type::value(f.fusedOf.empty() ? Scalar::F32 : Scalar::Void));
    CHECK(f.range.begin.file == kPearson);
  }
  // Loop-free bodies take four indices per thread in the 32-bit entry; looping ones one.
  CHECK(function(r, "RowSum").itemsPerThread == 1);
  CHECK(function(r, "RowSumSq").itemsPerThread == 1);
  CHECK(function(r, "GramDot").itemsPerThread == 1);
  CHECK(function(r, "CorrelationCell").itemsPerThread == 4);
  CHECK(function(r, "DistanceCell").itemsPerThread == 4);
  CHECK(function(r, "PearsonClamp").itemsPerThread == 4);
}

TEST_CASE("Pearson kernel signatures", "[pearson]") {
  const TranslateResult& r = pearson();
  REQUIRE(r.ok());
  CHECK(function(r, "RowSum").signature.toString() ==
        "(const float* x, int cols, float* culift_out, long long culift_n)");
  CHECK(roles(function(r, "RowSum")) == "input array, scalar, out, extent");
  CHECK(function(r, "RowSum").indexParams == std::vector<int>{2});
  CHECK(function(r, "RowSumSq").signature.toString() ==
        "(const float* x, int cols, float* culift_out, long long culift_n)");
  CHECK(function(r, "GramDot").signature.toString() ==
        "(const float* x, int cols, float* culift_out, long long culift_rows, long long culift_cols)");
  CHECK(function(r, "GramDot").indexParams == std::vector<int>{2, 3});
  CHECK(function(r, "CorrelationCell").signature.toString() ==
        "(const float* dot, const float* rowSum, const float* rowSumSq, int rows, int cols, float* culift_out, "
        "long long culift_rows, long long culift_cols)");
  CHECK(roles(function(r, "CorrelationCell")) ==
        "input array, input array, input array, scalar, scalar, out, extent, extent");
  CHECK(function(r, "DistanceCell").signature.toString() ==
        "(const float* dot, const float* rowSumSq, int rows, float* culift_out, long long culift_rows, "
        "long long culift_cols)");
  CHECK(function(r, "PearsonClamp").signature.toString() ==
        "(const float* cov, const float* denom, float* culift_out, long long culift_n)");
  CHECK(roles(function(r, "PearsonClamp")) == "element input, element input, out, extent");
  const auto& sig = function(r, "CorrelationCell").signature.params;
  CHECK(sig[3].userParam == 3);
  CHECK(sig[5].userParam == -1);
  CHECK(sig[6].axis == 0);
  CHECK(sig[7].axis == 1);
}

TEST_CASE("Pearson bodies are lifted with float arithmetic and float math", "[pearson]") {
  const TranslateResult& r = pearson();
  REQUIRE(r.ok());
  CHECK(
      body(r, "RowSum") ==
      "{ (Decl sum f32 (Float f32 0)) (For (Decl k i32 (Int i32 0)) (< bool (Var k) (Var cols)) (pre++ i32 (Var k)) "
      "{ (+= f32 in f32 (Var sum) (Index (Var x) (+ i32 (* i32 (Var i) (Var cols)) (Var k)))); }) (Return (Var sum)) }");
  const std::string corr = body(r, "CorrelationCell");
  CHECK_THAT(corr, Catch::Contains("(If (== bool (Var i) (Var j)) { (Return (Float f32 1)) })"));
  CHECK_THAT(corr, Catch::Contains("(Decl n f32 (Cast! f32 (Var cols)))"));
  CHECK_THAT(corr, Catch::Contains("(Math sqrt f32 (Math fmax f32 (Var varI) (Float f32 0)))"));
  CHECK_THAT(corr, Catch::Contains("(> bool (Var denom) (Float f32 9.999999960041972e-13))"));
  CHECK_THAT(corr, Catch::Contains("(Decl c f32)"));
  CHECK_THAT(corr,
             Catch::Contains("(Return (Math fmin f32 (Float f32 1) (Math fmax f32 (- f32 (Float f32 1)) (Var c))))"));
  CHECK_THAT(body(r, "DistanceCell"), Catch::Contains("(* f32 (Float f32 2) (Var d))"));
}

TEST_CASE("translate() of pearson_metrics.hpp is fast enough to run at start-up", "[pearson][timing]") {
  const auto start = std::chrono::steady_clock::now();
  TranslateResult r = translate(kPearson);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.ok());
  WARN("translate(pearson_metrics.hpp) took " << ms << " ms");
  CHECK(ms < 10000.0);
}
