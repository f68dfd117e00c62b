// The loop planner through the front end: which plan each loop gets, the entries it adds, and
// for every loop left per thread the reason `culift ast` reports.
#include <algorithm>

#include "culift/codegen.hpp"
#include "plans/analysis.hpp"
#include "plans/plan.hpp"
#include "translate_support.hpp"

using namespace culift;
using namespace culift::test;

namespace {

std::vector<std::string> entryNames(const Function& f) {
  std::vector<std::string> names;
  for (const PlanEntry& e : f.planEntries) names.push_back(e.kernelName);
  return names;
}

// The reason the loop of the only function in `code` runs per thread.
std::string reasonFor(const std::string& code) {
  TranslateResult r = lift(code);
  const Function& f = function(r, "f");
  CHECK(f.loopPlan == LoopPlan::PerThread);
  CHECK(f.planEntries.empty());
  return f.loopPlanReason;
}

}  // namespace

TEST_CASE("loop plans: contractions, symmetric ones and row reductions", "[loop-plan]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL float Gram(const float* x, int n, int i, int j) {\n"
      "  float acc = 0.0f;\n  for (int k = 0; k < n; ++k) acc += x[i * n + k] * x[j * n + k];\n  return acc;\n}\n"
      "CULIFT_KERNEL float Cross(const float* x, const float* y, int n, int i, int j) {\n"
      "  float acc = 0.0f;\n  for (int k = 0; k < n; ++k) acc += x[i * n + k] * y[j * n + k];\n  return acc;\n}\n"
      "CULIFT_KERNEL float Gemm(const float* A, const float* B, int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n  return s;\n}\n"
      "CULIFT_KERNEL float Dist(const float* x, int n, int i, int j) {\n"
      "  if (i == j) return 0.0f;\n  const int ri = i * n, rj = j * n;\n  float d = 0.0f;\n"
      "  for (int k = 0; k < n; ++k) d += (x[ri + k] - 1.0f) * (x[rj + k] - 1.0f);\n  return d;\n}\n"
      "CULIFT_KERNEL float Skew(const float* x, int n, int i, int j) {\n"
      "  float d = 0.0f;\n  for (int k = 0; k < n; ++k) d += x[i * n + k] - x[j * n + k];\n  return d;\n}\n"
      "CULIFT_KERNEL double MatVec(const double* A, const double* v, int n, int i) {\n"
      "  double s = 0.0;\n  for (int k = 1; k <= n; ++k) s += A[i * n + k - 1] * v[k - 1];\n  return s;\n}\n"
      "CULIFT_KERNEL void Scale(float* y, const float* x, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  y[i] = s;\n}\n"
      "CULIFT_KERNEL float Plain(const float* x, int i) { return x[i] * 2.0f; }\n");

  const Function& gram = function(r, "Gram");
  CHECK(gram.loopPlan == LoopPlan::SymmetricTiledContraction);
  CHECK(entryNames(gram) == std::vector<std::string>{"Gram_sym128", "Gram_sym64", "Gram_tiled128", "Gram_tiled64"});
  CHECK(gram.planEntries[0].squareOnly);
  CHECK_FALSE(gram.planEntries[2].squareOnly);
  CHECK(gram.planEntries[0].tileRows == 128);
  CHECK(gram.planEntries[0].threads == 256);

  // Two arrays: exchanging i and j does not give the same reads.
  CHECK(function(r, "Cross").loopPlan == LoopPlan::TiledContraction);
  const Function& gemm = function(r, "Gemm");
  CHECK(gemm.loopPlan == LoopPlan::TiledContraction);
  CHECK(entryNames(gemm) == std::vector<std::string>{"Gemm_tiled128", "Gemm_tiled64"});
  // Locals standing for i * n and j * n are compared as what they stand for; the early return
  // on the diagonal is symmetric too.
  CHECK(function(r, "Dist").loopPlan == LoopPlan::SymmetricTiledContraction);
  // a - b is not b - a.
  CHECK(function(r, "Skew").loopPlan == LoopPlan::TiledContraction);

  const Function& matvec = function(r, "MatVec");
  CHECK(matvec.loopPlan == LoopPlan::RowReduction);
  CHECK(entryNames(matvec) == std::vector<std::string>{"MatVec_rows32", "MatVec_rows8"});
  CHECK(function(r, "Scale").loopPlan == LoopPlan::RowReduction);

  // Narrow elements are staged too (copied at once rather than in flight); a scalar parameter
  // the body assigns gets a copy per output.
  TranslateResult narrow = lift(
      "CULIFT_KERNEL int Dot8(const signed char* x, int n, float scale, int i, int j) {\n"
      "  scale = scale * 2.0f;\n  int acc = 0;\n  for (int k = 0; k < n; ++k) acc += x[i * n + k] * x[j * n + k];\n"
      "  return acc + (int)scale;\n}\n");
  CHECK(function(narrow, "Dot8").loopPlan == LoopPlan::SymmetricTiledContraction);

  const Function& plain = function(r, "Plain");
  CHECK(plain.loopPlan == LoopPlan::PerThread);
  CHECK(plain.loopPlanReason.empty());

  // Every entry is emitted beside the per-thread ones.
  for (const Function* f : r.module->kernels())
    for (const PlanEntry& e : f->planEntries)
      CHECK(r.module->cudaSource.find("__global__ void __launch_bounds__(" + std::to_string(e.threads) + ") " +
                                      e.kernelName + "(") != std::string::npos);
}

TEST_CASE("loop plans: why a loop runs per thread", "[loop-plan]") {
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < i; ++k) s += x[j * n + k];\n  return s;\n}\n") ==
        "the bound of k depends on i");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = j; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n") ==
        "the start of k depends on j");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, const int* len, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < len[0]; ++k) s += x[i * n + k];\n  return s;\n}\n") ==
        "the bound of k depends on an element of 'len'");
  CHECK(reasonFor("CULIFT_KERNEL void f(float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  x[i * n + j] = s;\n}\n") ==
        "x is written and read");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) { if (s > 9.0f) break; s += x[i * n + k]; }\n"
                  "  return s;\n}\n") == "the loop leaves early (break)");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) { if (k == 3) return s; s += x[i * n + k]; }\n"
                  "  return s;\n}\n") == "the loop returns from inside");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n"
                  "  for (int k = 0; k < n; ++k) s += x[j * n + k];\n  return s;\n}\n") ==
        "the body has 2 loops (one counted loop is lifted)");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + j + k];\n  return s;\n}\n") ==
        "the index of x depends on both i and j");
  CHECK(reasonFor(
            "CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
            "  float s = 0.0f;\n  i = i % 4;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n") ==
        "the index parameter i is assigned");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; k += 2) s += x[i * n + k];\n  return s;\n}\n") ==
        "the counter k does not step by one (++k)");
  // The bound reads a parameter the body assigns: not the same for every output.
  CHECK(reasonFor(
            "CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
            "  float s = 0.0f;\n  n = n - 1;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n") ==
        "the bound of k depends on 'n', which is assigned");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float w[2] = {1.0f, 2.0f};\n  float s = 0.0f;\n"
                  "  for (int k = 0; k < n; ++k) s += w[k % 2] * x[i * n + k];\n  return s;\n}\n") ==
        "the local array w would be needed per output");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  int k = 0;\n  while (k < n) { s += x[i * n + k]; ++k; }\n  return s;\n}\n") ==
        "the loop is not a for loop at the top level of the body");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[(k * k) % n];\n  return s;\n}\n") ==
        "no array read in the loop is indexed by (i, k) or (j, k)");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, const float* y, int rows, int n, int i) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k] * y[k * rows + i];\n"
                  "  return s;\n}\n") ==
        "consecutive i read neighbouring elements of y already (one thread per output is coalesced)");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int rows, int n, int i) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[k * rows + 2 * i];\n  return s;\n}\n") ==
        "x is not read at consecutive k (the index is not k plus terms without k)");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i) {\n"
                  "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + 2 * k];\n  return s;\n}\n") ==
        "x is not read at consecutive k (the index is not k plus terms without k)");
  CHECK(reasonFor("CULIFT_KERNEL float f(const float* x, int n, int i, int j, int k) {\n"
                  "  float s = 0.0f;\n  for (int t = 0; t < n; ++t) s += x[i * n + t];\n  return s;\n}\n") ==
        "loops of 3-D kernels run per thread");
}

namespace {

// The plan of function f in `code` and, when it keeps its order, the reason.
std::pair<LoopPlan, std::string> reassociation(const std::string& code, TranslateOptions options = {}) {
  TranslateResult r = lift(code, std::move(options));
  const Function& f = function(r, "f");
  return {f.loopPlan, f.loopPlanReason};
}

}  // namespace

TEST_CASE("loop plans: reassociating row reductions", "[loop-plan]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL_REASSOCIATE float Total(const float* x, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n"
      "CULIFT_KERNEL_INDEX(row) CULIFT_KERNEL_REASSOCIATE double Two(const double* A, const double* v, int n, int row) {\n"
      "  double a = 0.0, b = 0.0;\n  for (int k = 0; k < n; ++k) { double t = A[row * n + k] * v[k];\n"
      "    a = t + a; if (t < 0.0) b -= t; }\n  return a * b;\n}\n"
      "CULIFT_KERNEL_REASSOCIATE float Gram(const float* x, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k] * x[j * n + k];\n  return s;\n}\n"
      "CULIFT_KERNEL float Plain(const float* x, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n");
  const Function& total = function(r, "Total");
  CHECK(total.reassociate);
  CHECK(total.loopPlan == LoopPlan::ReassociatingRowReduction);
  CHECK(entryNames(total) == std::vector<std::string>{"Total_warp"});
  CHECK(total.planEntries[0].threads == 256);
  CHECK(total.planEntries[0].tileRows == 8);
  REQUIRE(total.reassociatedSums.size() == 1);
  CHECK(total.vars[total.reassociatedSums[0]].name == "s");
  CHECK(total.loopPlanReason.empty());
  const Function& two = function(r, "Two");
  CHECK(two.loopPlan == LoopPlan::ReassociatingRowReduction);
  CHECK(two.indexNames == std::vector<std::string>{"row"});
  REQUIRE(two.reassociatedSums.size() == 2);
  // 2-D contractions keep their order: their tiles are as fast.
  CHECK(function(r, "Gram").loopPlan == LoopPlan::SymmetricTiledContraction);
  CHECK_FALSE(function(r, "Plain").reassociate);
  CHECK(function(r, "Plain").loopPlan == LoopPlan::RowReduction);
  CHECK(std::string(name(LoopPlan::ReassociatingRowReduction)) == "row reduction (reassociating)");

  // The translate option allows it for every kernel.
  TranslateOptions all;
  all.reassociate = true;
  CHECK(reassociation("CULIFT_KERNEL float f(const float* x, int n, int i) {\n"
                      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s -= x[i * n + k];\n  return s;\n}\n",
                      all)
            .first == LoopPlan::ReassociatingRowReduction);
}

TEST_CASE("loop plans: why a loop keeps its order", "[loop-plan]") {
  auto why = [](const std::string& prologue, const std::string& body, const std::string& type = "float") {
    auto [plan, reason] = reassociation("CULIFT_KERNEL_REASSOCIATE " + type + " f(" + type + "* y, const " + type +
                                        "* x, int n, int i) {\n  " + type + " s = 0;\n" + prologue +
                                        "  for (int k = 0; k < n; ++k) { " + body + " }\n  return s;\n}\n");
    CHECK(plan == LoopPlan::RowReduction);  // the exact-order form still applies
    return reason;
  };
  // A plain sum reassociates (the exact-order check above then fails: see the plan).
  CHECK(reassociation("CULIFT_KERNEL_REASSOCIATE float f(float* y, const float* x, int n, int i) {\n"
                      "  float s = 0;\n  for (int k = 0; k < n; ++k) { s += x[i * n + k]; }\n  return s;\n}\n")
            .first == LoopPlan::ReassociatingRowReduction);
  CHECK(why("  y[i] = 0;\n", "s += x[i * n + k];") ==
        "not reassociated: the statements before the loop write an array");
  CHECK(why("", "s = s * 0.5f + x[i * n + k];") ==
        "not reassociated: s carries a value from one k to the next other than a sum (s += term)");
  CHECK(why("", "s *= x[i * n + k];") ==
        "not reassociated: s carries a value from one k to the next other than a sum (s += term)");
  CHECK(why("", "s += x[i * n + k] + s;") ==
        "not reassociated: the sum s is read in the loop other than by its own additions");
  CHECK(why("  float m = 0.0f;\n", "s += x[i * n + k]; m = x[i * n + k];") ==
        "not reassociated: m carries a value from one k to the next other than a sum (s += term)");
  CHECK(why("", "s += x[i * n + k];", "int") ==
        "not reassociated: the sum s is not a float or double (integer sums keep their order)");
  CHECK(why("", "s += (double)x[i * n + k];") ==
        "not reassociated: s carries a value from one k to the next other than a sum (s += term)");
}

TEST_CASE("loop plans: column reductions", "[loop-plan][columns]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL float Col2(const float* x, int d1, int d2, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < d1; ++k) s += x[(i * d1 + k) * d2 + j];\n  return s;\n}\n"
      "CULIFT_KERNEL float Col1(const float* x, int rows, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[k * rows + i];\n  return s;\n}\n"
      "CULIFT_KERNEL float Rms(const float* x, int F, int S, int i) {\n"
      "  const int b = i / S, s = i % S;\n  float sum = 0.0f;\n"
      "  for (int f = 0; f < F; ++f) { const float v = x[(b * F + f) * S + s]; sum += v * v; }\n"
      "  return sum / (float)F;\n}\n"
      "CULIFT_KERNEL_INDEX(b, s) double Weighted(const double* x, const double* w, int F, int S, int b, int s) {\n"
      "  double acc = 0.0;\n  for (int f = 0; f < F; ++f) acc += w[f] * x[(b * F + f) * S + s];\n  return acc;\n}\n"
      "CULIFT_KERNEL int Max(const int* x, int rows, int n, int i) {\n"
      "  if (n <= 0) return 0;\n  int m = x[i];\n  for (int k = 1; k < n; ++k) m = m > x[k * rows + i] ? m : "
      "x[k * rows + i];\n  return m;\n}\n"
      "CULIFT_KERNEL void Mean(float* y, const float* x, int d1, int d2, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < d1; ++k) s += x[(i * d1 + k) * d2 + j];\n"
      "  y[i * d2 + j] = s / (float)d1;\n}\n");
  for (const char* name : {"Col2", "Col1", "Rms", "Weighted", "Max", "Mean"}) {
    INFO(name);
    const Function& f = function(r, name);
    CHECK(f.loopPlan == LoopPlan::ColumnReduction);
    CHECK(entryNames(f) == std::vector<std::string>{std::string(name) + "_cols256", std::string(name) + "_cols64"});
    REQUIRE(f.planEntries.size() == 2);
    CHECK(f.planEntries[0].blockMapping() == BlockMapping::Columns);
    CHECK(f.planEntries[0].tileCols == 256);
    CHECK(f.planEntries[0].threads == 256);
    CHECK(f.planEntries[1].tileCols == 64);
    CHECK(f.planEntries[1].threads == 64);
    // Nothing better was refused: no remark.
    CHECK(f.loopPlanReason.empty());
    CHECK(r.module->cudaSource.find(") " + std::string(name) + "_cols256(") != std::string::npos);
  }
  CHECK(std::string(name(LoopPlan::ColumnReduction)) == "column reduction");
  // The loads of 16 iterations (8 of doubles, and of a kernel reading two arrays) ahead of the body.
  CHECK(r.module->cudaSource.find("float culift_v0[16];  // x[(((i * d1) + k) * d2) + j]") != std::string::npos);
  CHECK(r.module->cudaSource.find("double culift_v0[8];") != std::string::npos);
  CHECK(r.module->cudaSource.find("double culift_v1[8];") != std::string::npos);

  // Rows stay row reductions and contractions contractions; a reassociating kernel keeps the
  // exact column plan, saying why its sums keep their order.
  TranslateResult others = lift(
      "CULIFT_KERNEL float Row(const float* x, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n"
      "CULIFT_KERNEL float Gemm(const float* A, const float* B, int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n  return s;\n}\n"
      "CULIFT_KERNEL_REASSOCIATE float Re(const float* x, int rows, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[k * rows + i];\n  return s;\n}\n");
  CHECK(function(others, "Row").loopPlan == LoopPlan::RowReduction);
  CHECK(function(others, "Gemm").loopPlan == LoopPlan::TiledContraction);
  const Function& re = function(others, "Re");
  CHECK(re.loopPlan == LoopPlan::ColumnReduction);
  CHECK(re.reassociatedSums.empty());
  CHECK(re.loopPlanReason ==
        "not reassociated: consecutive i read neighbouring elements of x already (one thread per output is coalesced)");

  // Where it does not apply, the reason names what it needs (the plan's own sentence, from its
  // decide, and the remark `culift ast` shows).
  auto decideFor = [](const std::string& code) {
    TranslateResult t = lift(code);
    const Function& f = function(t, "f");
    const codegen::KernelAnalysis analysis = codegen::analyzeKernel(f);
    REQUIRE(analysis.loop);
    return std::pair{codegen::plans::unit(LoopPlan::ColumnReduction).decide(f, analysis), f.loopPlanReason};
  };
  {
    auto [d, remark] = decideFor(
        "CULIFT_KERNEL float f(const float* x, int n, int m, int i, int j) {\n"
        "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[(i * m + j) * n + k];\n"
        "  return s;\n}\n");
    CHECK_FALSE(d.applies);
    CHECK(d.reason == "x is read at consecutive k: a row per output (one thread per output strides the rows)");
    CHECK(remark == "the index of x depends on both i and j");  // the contractions' reason comes last
  }
  {
    const codegen::plans::Decision d =
        decideFor(
            "CULIFT_KERNEL float f(const float* x, int n, int m, int i, int j) {\n"
            "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[(i * n + k) * m + 3 * j];\n"
            "  return s;\n}\n")
            .first;
    CHECK_FALSE(d.applies);
    CHECK(d.reason == "consecutive j read elements of x 3 apart (a column reduction reads neighbouring ones)");
  }
  {
    auto [d, remark] = decideFor(
        "CULIFT_KERNEL float f(const float* x, int n, int i) {\n"
        "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + 2 * k];\n"
        "  return s;\n}\n");
    CHECK_FALSE(d.applies);
    CHECK(d.reason ==
          "the index of x does not end in + i or + i % n (a column reduction reads neighbouring elements for "
          "neighbouring i)");
    CHECK(remark == "x is not read at consecutive k (the index is not k plus terms without k)");
  }
  {
    // A row, and a contraction's operands: not the plan's kernels (no reason of its own).
    const codegen::plans::Decision row = decideFor(
                                             "CULIFT_KERNEL float f(const float* x, int n, int i) {\n"
                                             "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n"
                                             "  return s;\n}\n")
                                             .first;
    CHECK_FALSE(row.applies);
    CHECK(row.reason.empty());
    const codegen::plans::Decision gemm =
        decideFor(
            "CULIFT_KERNEL float f(const float* A, const float* B, int n, int i, int j) {\n"
            "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n"
            "  return s;\n}\n")
            .first;
    CHECK_FALSE(gemm.applies);
    CHECK(gemm.reason.empty());
  }
}
