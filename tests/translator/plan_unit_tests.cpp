// The pieces a loop plan is made of: the analysis every kernel gets (loop-free ones included), the
// structured writer the entries are written through, and the planner asking each plan of
// plans.def in turn.
#include <string>

#include "code_writer.hpp"
#include "culift/codegen.hpp"
#include "plans/analysis.hpp"
#include "plans/plan.hpp"
#include "reads_first.hpp"
#include "translate_support.hpp"

using namespace culift;
using namespace culift::test;

TEST_CASE("every kernel's reads: offsets and strides per array, loop-free bodies included", "[loop-plan][analysis]") {
  TranslateResult r = lift(R"(
CULIFT_KERNEL float Blur(const float* x, const float* w, int n, int i) {
  return w[0] * x[i - 1] + w[1] * x[i] + w[2] * x[1 + i];
}
CULIFT_KERNEL float Cross(const float* x, int n, int i, int j) {
  const int row = i * n;
  return x[row + j + 1] - x[(i + 2) * n + j - 1];
}
CULIFT_KERNEL float RowSum(const float* x, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[i * n + k];
  return s;
}
)");
  const codegen::KernelAnalysis blur = codegen::analyzeKernel(function(r, "Blur"));
  CHECK_FALSE(blur.loop);
  CHECK(blur.loopReason.empty());  // no loop: nothing to say
  REQUIRE(blur.reads.size() == 6);
  std::vector<std::int64_t> offsets, strides;
  for (const codegen::ArrayRead& read : blur.reads) {
    CHECK_FALSE(read.inLoop);
    if (function(r, "Blur").vars[read.array].name != "x") continue;
    offsets.push_back(read.offset);
    REQUIRE(read.stride[0]);
    strides.push_back(*read.stride[0]);
  }
  CHECK(offsets == std::vector<std::int64_t>{-1, 0, 1});
  CHECK(strides == std::vector<std::int64_t>{1, 1, 1});
  CHECK(codegen::sameBase(blur.reads[1], blur.reads[5]));        // x[i - 1], x[1 + i]
  CHECK_FALSE(codegen::sameBase(blur.reads[0], blur.reads[1]));  // w[0], x[i - 1]

  const codegen::KernelAnalysis cross = codegen::analyzeKernel(function(r, "Cross"));
  REQUIRE(cross.reads.size() == 2);
  CHECK(cross.reads[0].offset == 1);
  CHECK(cross.reads[1].offset == -1);
  CHECK_FALSE(cross.reads[0].stride[0]);  // i * n: not a literal stride
  REQUIRE(cross.reads[0].stride[1]);
  CHECK(*cross.reads[0].stride[1] == 1);
  CHECK_FALSE(codegen::sameBase(cross.reads[0], cross.reads[1]));

  const codegen::KernelAnalysis rows = codegen::analyzeKernel(function(r, "RowSum"));
  REQUIRE(rows.loop);
  REQUIRE(rows.reads.size() == 1);
  CHECK(rows.reads[0].inLoop);
  CHECK(rows.loop->operands.size() == 1);
}

TEST_CASE("a staged operand is affine where k and its axis move its index by fixed steps", "[loop-plan][analysis]") {
  TranslateResult r = lift(R"(
CULIFT_KERNEL float Steps(const float* a, const float* b, int n, int m, int i, int j) {
  const int row = i * n;
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += a[row + (n - 1 - k)] * b[(k + 2) * m + j];
  return s;
}
CULIFT_KERNEL float NoSteps(const float* a, const float* b, int n, int i, int j) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += a[i * k + 1] * b[(k * k) % n + j * n];
  return s;
}
)");
  const codegen::KernelAnalysis steps = codegen::analyzeKernel(function(r, "Steps"));
  REQUIRE(steps.loop);
  REQUIRE(steps.loop->operands.size() == 2);
  for (const codegen::StagedOperand& o : steps.loop->operands) CHECK(o.affine);
  const codegen::KernelAnalysis none = codegen::analyzeKernel(function(r, "NoSteps"));
  REQUIRE(none.loop);
  REQUIRE(none.loop->operands.size() == 2);
  CHECK_FALSE(none.loop->operands[0].affine);  // i * k: the step along k depends on the row
  CHECK_FALSE(none.loop->operands[1].affine);  // (k * k) % n
}

TEST_CASE("the planner takes the first plan of plans.def that applies", "[loop-plan]") {
  TranslateOptions reassociate;
  reassociate.reassociate = true;
  TranslateResult r = lift(R"(
CULIFT_KERNEL float RowSum(const float* x, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[i * n + k];
  return s;
}
)",
                           reassociate);
  const Function& f = function(r, "RowSum");
  CHECK(f.loopPlan == LoopPlan::SplitRowReduction);
  const codegen::KernelAnalysis analysis = codegen::analyzeKernel(f);
  // The three row reductions apply; the split rows come first, then the warp per row.
  const codegen::plans::Decision split = codegen::plans::unit(LoopPlan::SplitRowReduction).decide(f, analysis);
  REQUIRE(split.applies);
  REQUIRE(split.entries.size() == 2);
  CHECK(split.entries[0].mapping == BlockMapping::SplitRows);
  CHECK(split.entries[1].mapping == BlockMapping::RowBlocks);  // the warp-per-row plan's entry
  CHECK(split.entries[1].plan == LoopPlan::ReassociatingRowReduction);
  CHECK(codegen::plans::unit(LoopPlan::ReassociatingRowReduction).decide(f, analysis).applies);
  const codegen::plans::Decision exact = codegen::plans::unit(LoopPlan::RowReduction).decide(f, analysis);
  REQUIRE(exact.applies);
  REQUIRE(exact.entries.size() == 2);
  CHECK(exact.entries[0].kernelName == "RowSum_rows32");
  CHECK(exact.entries[0].mapping == BlockMapping::RowBlocks);
  // A 2-D plan does not concern a 1-D kernel: no reason of its own.
  const codegen::plans::Decision tiled = codegen::plans::unit(LoopPlan::TiledContraction).decide(f, analysis);
  CHECK_FALSE(tiled.applies);
  CHECK(tiled.reason.empty());
}

TEST_CASE("the structured writer owns indentation: scopes close where they opened", "[codegen][writer]") {
  codegen::CodeWriter out(false, "x.cu", "x.cpp");
  out.say("void f() {");
  {
    codegen::CodeWriter::Scope body = out.indented();
    codegen::CodeWriter::Scope branch = out.open("if (a)", "why");
    out.say("b();");
    branch.otherwise();
    {
      codegen::CodeWriter::Scope bare = out.open("");
      out.say("c();");
    }
    out.line(out.depth(), "d();");
  }
  out.say("}");
  CHECK(out.take() ==
        "void f() {\n"
        "  if (a) {  // why\n"
        "    b();\n"
        "  } else {\n"
        "    {\n"
        "      c();\n"
        "    }\n"
        "    d();\n"
        "  }\n"
        "}\n");
}

TEST_CASE("reads issued first: which loop-free kernels qualify, which reads go first, and why not", "[reads-first]") {
  TranslateResult r = lift(R"(
#include <cmath>
CULIFT_KERNEL float Normalize(const float* x, const float* mean, const float* var, long long n, int i, int j) {
  const float d = x[i * n + j] - mean[i];
  return d / std::sqrt(var[i] + 1e-5f);
}
CULIFT_KERNEL float Pick(const float* a, const float* b, const float* c, int n, int i) {
  const int at = i * n;
  return a[i] > 0.0f ? b[at] : c[i] + a[i + 1];
}
CULIFT_KERNEL float Guarded(const float* x, int i) {
  if (i == 0) return 0.0f;
  return x[i - 1];
}
CULIFT_KERNEL float Gather(const float* x, const int* at, int i) { return x[at[i]]; }
CULIFT_KERNEL float NoRead(float a, int i) { return a * (float)i; }
CULIFT_KERNEL float Elementwise(float a, float b) { return a * b; }
CULIFT_KERNEL float Loops(const float* x, int n, int i) {
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += x[k];
  return s;
}
)");
  auto readsOf = [&](const char* name) {
    std::vector<std::string> texts;
    const Function& f = function(r, name);
    if (auto reads = codegen::readsIssuedFirst(f))
      for (const Expr* e : *reads) texts.push_back(f.vars[e->operands[0]->var].name);
    return texts;
  };
  auto whyNot = [&](const char* name) {
    std::string why;
    CHECK_FALSE(codegen::readsIssuedFirst(function(r, name), &why));
    return why;
  };
  CHECK(readsOf("Normalize") == std::vector<std::string>{"x", "mean", "var"});
  CHECK(function(r, "Normalize").itemsPerThread == codegen::kReadsFirstItems);
  // a[i] before ?: goes first; b[at] (a local index), c[i] and a[i + 1] (under ?:) stay.
  CHECK(readsOf("Pick") == std::vector<std::string>{"a"});
  CHECK(whyNot("Guarded") == "a statement other than declarations and one return");
  CHECK(function(r, "Guarded").itemsPerThread == 4);
  CHECK(readsOf("Gather") == std::vector<std::string>{"at"});  // x[at[i]] needs the read of at[i]
  CHECK(whyNot("NoRead") == "no read every call performs");
  CHECK(whyNot("Elementwise") == "not a 1-, 2- or 3-D kernel");
  CHECK(function(r, "Elementwise").itemsPerThread == 4);  // one vector per array instead
  CHECK(whyNot("Loops") == "a statement other than declarations and one return");
  CHECK(function(r, "Loops").itemsPerThread == 1);
  // mean[i] and var[i] are the same element for every j of a step: read once, by output 0 (whose
  // index the loop keeps in range, so neither its reads nor its statements are behind a test).
  const std::string step = emitCudaFunction(*r.module, function(r, "Normalize"));
  CHECK(step.find("const float culift_r0_0 = x[") != std::string::npos);
  CHECK(step.find("const float culift_r0_1 = mean[culift_i];") != std::string::npos);
  CHECK(step.find("culift_in1 ? x[") != std::string::npos);
  CHECK(step.find("culift_r1_1") == std::string::npos);
  CHECK(step.find("culift_in0") == std::string::npos);
  CHECK(step.find("culift_r7_0 - culift_r0_1") != std::string::npos);
}
