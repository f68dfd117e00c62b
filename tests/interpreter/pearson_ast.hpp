// The six tutorial functions, as C++ (compiled natively) and as the typed AST the front end
// produces for them (built by hand, casts included), so interpreter tests and benchmarks do
// not depend on the Clang front end.
#pragma once

#include <algorithm>
#include <cmath>

#include "ast_builder.hpp"

namespace culift::testing::native {

inline float RowSum(const float* x, int cols, int i) {
  float sum = 0.0f;
  for (int k = 0; k < cols; ++k) sum += x[i * cols + k];
  return sum;
}
inline float RowSumSq(const float* x, int cols, int i) {
  float sumSq = 0.0f;
  for (int k = 0; k < cols; ++k) {
    float v = x[i * cols + k];
    sumSq += v * v;
  }
  return sumSq;
}
inline float GramDot(const float* x, int cols, int i, int j) {
  float acc = 0.0f;
  for (int k = 0; k < cols; ++k) acc += x[i * cols + k] * x[j * cols + k];
  return acc;
}
inline float CorrelationCell(const float* dot, const float* rowSum, const float* rowSumSq, int rows, int cols, int i,
                             int j) {
  if (i == j) return 1.0f;
  float n = (float)cols;
  float meanI = rowSum[i] / n;
  float meanJ = rowSum[j] / n;
  float varI = rowSumSq[i] - n * meanI * meanI;
  float varJ = rowSumSq[j] - n * meanJ * meanJ;
  float d = dot[i * rows + j];
  float cov = d - n * meanI * meanJ;
  float denom = std::sqrt(std::max(varI, 0.0f)) * std::sqrt(std::max(varJ, 0.0f));
  float c;
  if (denom > 1e-12f) c = cov / denom;
  else c = 0.0f;
  return std::min(1.0f, std::max(-1.0f, c));
}
inline float DistanceCell(const float* dot, const float* rowSumSq, int rows, int i, int j) {
  if (i == j) return 0.0f;
  float d = dot[i * rows + j];
  float d2 = std::max(rowSumSq[i] + rowSumSq[j] - 2.0f * d, 0.0f);
  return std::sqrt(d2);
}
inline float PearsonClamp(float cov, float denom) {
  float c;
  if (denom > 1e-12f) c = cov / denom;
  else c = 0.0f;
  return std::min(1.0f, std::max(-1.0f, c));
}

}  // namespace culift::testing::native

namespace culift::testing {

inline constexpr Scalar F = Scalar::F32;
inline constexpr Scalar I = Scalar::I32;

// x[a * cols + k] for int variables.
inline ExprPtr rowElem(FnBuilder& b, VarId x, VarId a, VarId cols, VarId k) {
  return b.sub(x, b.bin(BinaryOp::Add, b.bin(BinaryOp::Mul, b.var(a), b.var(cols)), b.var(k)));
}

// for (int k = 0; k < cols; ++k) body
inline StmtPtr loopK(FnBuilder& b, VarId k, VarId cols, StmtPtr body) {
  return b.forLoop(b.decl(k, b.lit(0)), b.bin(BinaryOp::Lt, b.var(k), b.var(cols)),
                   b.incDec(IncDecOp::PreInc, b.var(k)), std::move(body));
}

inline Function rowSumAst() {
  FnBuilder b("RowSum", Type::value(F), "pearson_metrics.hpp");
  b.at(10);
  VarId x = b.param("x", Type::pointer(F, true)), cols = b.param("cols", Type::value(I)),
        i = b.param("i", Type::value(I));
  VarId sum = b.local("sum", Type::value(F)), k = b.local("k", Type::value(I));
  b.at(11);
  auto s0 = b.decl(sum, b.lit(0.0f));
  b.at(12);
  auto loop = loopK(b, k, cols, b.expr(b.compound(BinaryOp::Add, b.var(sum), rowElem(b, x, i, cols, k))));
  b.at(13);
  std::vector<StmtPtr> body;
  body.push_back(std::move(s0));
  body.push_back(std::move(loop));
  body.push_back(b.ret(b.var(sum)));
  return b.finish(b.block(std::move(body)), {"i"});
}

inline Function rowSumSqAst() {
  FnBuilder b("RowSumSq", Type::value(F), "pearson_metrics.hpp");
  b.at(20);
  VarId x = b.param("x", Type::pointer(F, true)), cols = b.param("cols", Type::value(I)),
        i = b.param("i", Type::value(I));
  VarId sumSq = b.local("sumSq", Type::value(F)), k = b.local("k", Type::value(I)), v = b.local("v", Type::value(F));
  std::vector<StmtPtr> inner;
  inner.push_back(b.decl(v, rowElem(b, x, i, cols, k)));
  inner.push_back(b.expr(b.compound(BinaryOp::Add, b.var(sumSq), b.bin(BinaryOp::Mul, b.var(v), b.var(v)))));
  std::vector<StmtPtr> body;
  body.push_back(b.decl(sumSq, b.lit(0.0f)));
  body.push_back(loopK(b, k, cols, b.block(std::move(inner))));
  body.push_back(b.ret(b.var(sumSq)));
  return b.finish(b.block(std::move(body)), {"i"});
}

inline Function gramDotAst() {
  FnBuilder b("GramDot", Type::value(F), "pearson_metrics.hpp");
  b.at(30);
  VarId x = b.param("x", Type::pointer(F, true)), cols = b.param("cols", Type::value(I)),
        i = b.param("i", Type::value(I)), j = b.param("j", Type::value(I));
  VarId acc = b.local("acc", Type::value(F)), k = b.local("k", Type::value(I));
  std::vector<StmtPtr> body;
  body.push_back(b.decl(acc, b.lit(0.0f)));
  body.push_back(loopK(b, k, cols,
                       b.expr(b.compound(BinaryOp::Add, b.var(acc),
                                         b.bin(BinaryOp::Mul, rowElem(b, x, i, cols, k), rowElem(b, x, j, cols, k))))));
  body.push_back(b.ret(b.var(acc)));
  return b.finish(b.block(std::move(body)), {"i", "j"});
}

// if (denom > 1e-12f) c = cov / denom; else c = 0.0f; return std::min(1.0f, std::max(-1.0f, c));
inline void clampTail(FnBuilder& b, std::vector<StmtPtr>& body, VarId c, VarId cov, VarId denom) {
  body.push_back(b.decl(c));
  body.push_back(b.ifThen(b.bin(BinaryOp::Gt, b.var(denom), b.lit(1e-12f)),
                          b.expr(b.assign(b.var(c), b.bin(BinaryOp::Div, b.var(cov), b.var(denom)))),
                          b.expr(b.assign(b.var(c), b.lit(0.0f)))));
  std::vector<ExprPtr> maxArgs;
  maxArgs.push_back(b.un(UnaryOp::Neg, b.lit(1.0f)));
  maxArgs.push_back(b.var(c));
  std::vector<ExprPtr> minArgs;
  minArgs.push_back(b.lit(1.0f));
  minArgs.push_back(b.math(MathFn::Max, F, std::move(maxArgs)));
  body.push_back(b.ret(b.math(MathFn::Min, F, std::move(minArgs))));
}

inline Function correlationCellAst() {
  FnBuilder b("CorrelationCell", Type::value(F), "pearson_metrics.hpp");
  b.at(40);
  VarId dot = b.param("dot", Type::pointer(F, true)), rowSum = b.param("rowSum", Type::pointer(F, true)),
        rowSumSq = b.param("rowSumSq", Type::pointer(F, true)), rows = b.param("rows", Type::value(I)),
        cols = b.param("cols", Type::value(I)), i = b.param("i", Type::value(I)), j = b.param("j", Type::value(I));
  VarId n = b.local("n", Type::value(F)), meanI = b.local("meanI", Type::value(F)),
        meanJ = b.local("meanJ", Type::value(F)), varI = b.local("varI", Type::value(F)),
        varJ = b.local("varJ", Type::value(F)), d = b.local("d", Type::value(F)), cov = b.local("cov", Type::value(F)),
        denom = b.local("denom", Type::value(F)), c = b.local("c", Type::value(F));
  auto mul = [&](ExprPtr a, ExprPtr x) { return b.bin(BinaryOp::Mul, std::move(a), std::move(x)); };
  auto sqrtMax = [&](VarId v) {
    std::vector<ExprPtr> mx;
    mx.push_back(b.var(v));
    mx.push_back(b.lit(0.0f));
    std::vector<ExprPtr> sq;
    sq.push_back(b.math(MathFn::Max, F, std::move(mx)));
    return b.math(MathFn::Sqrt, F, std::move(sq));
  };
  std::vector<StmtPtr> body;
  body.push_back(b.ifThen(b.bin(BinaryOp::Eq, b.var(i), b.var(j)), b.ret(b.lit(1.0f))));
  body.push_back(b.decl(n, b.cast(F, b.var(cols), true)));
  body.push_back(b.decl(meanI, b.bin(BinaryOp::Div, b.sub(rowSum, b.var(i)), b.var(n))));
  body.push_back(b.decl(meanJ, b.bin(BinaryOp::Div, b.sub(rowSum, b.var(j)), b.var(n))));
  body.push_back(
      b.decl(varI, b.bin(BinaryOp::Sub, b.sub(rowSumSq, b.var(i)), mul(mul(b.var(n), b.var(meanI)), b.var(meanI)))));
  body.push_back(
      b.decl(varJ, b.bin(BinaryOp::Sub, b.sub(rowSumSq, b.var(j)), mul(mul(b.var(n), b.var(meanJ)), b.var(meanJ)))));
  body.push_back(b.decl(d, b.sub(dot, b.bin(BinaryOp::Add, mul(b.var(i), b.var(rows)), b.var(j)))));
  body.push_back(b.decl(cov, b.bin(BinaryOp::Sub, b.var(d), mul(mul(b.var(n), b.var(meanI)), b.var(meanJ)))));
  body.push_back(b.decl(denom, mul(sqrtMax(varI), sqrtMax(varJ))));
  clampTail(b, body, c, cov, denom);
  return b.finish(b.block(std::move(body)), {"i", "j"});
}

inline Function distanceCellAst() {
  FnBuilder b("DistanceCell", Type::value(F), "pearson_metrics.hpp");
  b.at(60);
  VarId dot = b.param("dot", Type::pointer(F, true)), rowSumSq = b.param("rowSumSq", Type::pointer(F, true)),
        rows = b.param("rows", Type::value(I)), i = b.param("i", Type::value(I)), j = b.param("j", Type::value(I));
  VarId d = b.local("d", Type::value(F)), d2 = b.local("d2", Type::value(F));
  std::vector<StmtPtr> body;
  body.push_back(b.ifThen(b.bin(BinaryOp::Eq, b.var(i), b.var(j)), b.ret(b.lit(0.0f))));
  body.push_back(b.decl(d, b.sub(dot, b.bin(BinaryOp::Add, b.bin(BinaryOp::Mul, b.var(i), b.var(rows)), b.var(j)))));
  std::vector<ExprPtr> mx;
  mx.push_back(b.bin(BinaryOp::Sub, b.bin(BinaryOp::Add, b.sub(rowSumSq, b.var(i)), b.sub(rowSumSq, b.var(j))),
                     b.bin(BinaryOp::Mul, b.lit(2.0f), b.var(d))));
  mx.push_back(b.lit(0.0f));
  body.push_back(b.decl(d2, b.math(MathFn::Max, F, std::move(mx))));
  std::vector<ExprPtr> sq;
  sq.push_back(b.var(d2));
  body.push_back(b.ret(b.math(MathFn::Sqrt, F, std::move(sq))));
  return b.finish(b.block(std::move(body)), {"i", "j"});
}

inline Function pearsonClampAst() {
  FnBuilder b("PearsonClamp", Type::value(F), "pearson_metrics.hpp");
  b.at(70);
  VarId cov = b.param("cov", Type::value(F)), denom = b.param("denom", Type::value(F));
  VarId c = b.local("c", Type::value(F));
  std::vector<StmtPtr> body;
  clampTail(b, body, c, cov, denom);
  return b.finish(b.block(std::move(body)), {}, true);
}

// All six, in the tutorial's order.
inline std::shared_ptr<Module> pearsonModule() {
  std::vector<Function> fns;
  fns.push_back(rowSumAst());
  fns.push_back(rowSumSqAst());
  fns.push_back(gramDotAst());
  fns.push_back(correlationCellAst());
  fns.push_back(distanceCellAst());
  fns.push_back(pearsonClampAst());
  return moduleOf(std::move(fns), "pearson_metrics.hpp");
}

}  // namespace culift::testing
