// The pseudocode view: the typed AST with every conversion as a cast, and a header with the
// index mode and each parameter's role.
#include "emit_test_support.hpp"

using namespace culift;
using namespace culift::test;

namespace {

Module rowSumModule() {
  Module module{"rows.cpp", {}, {}};
  FunctionBuilder fb("RowSum", val(Scalar::F32), 3);
  const VarId x = fb.param("x", Type::pointer(Scalar::F32, true));
  const VarId cols = fb.param("cols", val(Scalar::I32));
  const VarId i = fb.param("i", val(Scalar::I32));
  const VarId sum = fb.local("sum", val(Scalar::F32));
  const VarId k = fb.local("k", val(Scalar::I32));
  const Function& f = fb.fn;
  auto body = stmts(
      decl(sum, cast(lit(0), Scalar::F32), 4),
      forStmt(decl(k, lit(0), 5), bin(BinaryOp::Lt, ref(f, k), ref(f, cols)), incdec(IncDecOp::PostInc, ref(f, k)),
              exprStmt(compound(BinaryOp::Add, ref(f, sum),
                                sub(f, x, bin(BinaryOp::Add, bin(BinaryOp::Mul, ref(f, i), ref(f, cols)), ref(f, k))),
                                Scalar::F32),
                       6),
              5),
      ret(math(MathFn::Sqrt, Scalar::F32, exprs(cast(cast(ref(f, sum), Scalar::F64), Scalar::F32))), 7));
  module.functions.push_back(fb.take(std::move(body)));
  classifyByHand(module.functions[0], IndexMode::Grid1D, {2});
  return module;
}

}  // namespace

TEST_CASE("pseudocode shows every cast the AST holds and the roles of the parameters", "[codegen][pseudocode]") {
  const Module module = rowSumModule();
  const std::string text = writePseudocode(module, module.functions[0]);
  requireLinesInOrder(
      text,
      {
          "// RowSum: Grid1D, kernel RowSum_kernel(const float* x [input array], int cols [scalar], float* out [out], long long n_i [extent of i])",
          "// parameters: x (input array), cols (scalar), i (index, axis 0)",
          "float RowSum(const float* x, int cols, int i) {",
          "float sum = (float)0;",
          "for (int k = 0; k < cols; k++) {",
          "sum += x[(i * cols) + k];",
          "}",
          "return std::sqrt((float)(double)sum);",
          "}",
      });
  CHECK(text.find("#line") == std::string::npos);
  CHECK(text.find("__device__") == std::string::npos);
}

TEST_CASE("pseudocode is deterministic and marks device-only functions", "[codegen][pseudocode]") {
  Module module = rowSumModule();
  classifyByHand(module.functions[0], IndexMode::DeviceOnly);
  const std::string first = writePseudocode(module, module.functions[0]);
  CHECK(first == writePseudocode(module, module.functions[0]));
  requireLinesInOrder(first, {"// RowSum: DeviceOnly", "// parameters: x (input array), cols (scalar), i (scalar)"});
}

TEST_CASE("pseudocode prints special values as C++ would", "[codegen][pseudocode]") {
  Module module{"special.cpp", {}, {}};
  FunctionBuilder fb("Inf", val(Scalar::F64), 1);
  auto body = stmts(ret(flit(-std::numeric_limits<double>::infinity(), Scalar::F64), 2));
  module.functions.push_back(fb.take(std::move(body)));
  const std::string text = writePseudocode(module, module.functions[0]);
  requireLinesInOrder(text, {"double Inf() {", "return -std::numeric_limits<double>::infinity();"});
}
