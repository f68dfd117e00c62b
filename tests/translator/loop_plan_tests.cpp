// The loop planner through the front end: which plan each loop gets, the entries it adds, and
// for every loop left per thread the reason `culift ast` reports.
#include <algorithm>

#include "culift/ast/module_file.hpp"
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

// The text of `src` from `start` (which must be there) to the first `end` after it.
std::string textFrom(const std::string& src, const std::string& start, const std::string& end) {
  const std::size_t at = src.find(start);
  REQUIRE(at != std::string::npos);
  return src.substr(at, src.find(end, at) - at);
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
  // The 128-wide tile that copies B in 16-byte groups holds a warp of 4 x 8 threads; the 64-wide
  // one and the tiles without groups (Gram's operands run along k) keep a warp of 2 x 16.
  {
    const std::string& cuda = r.module->cudaSource;
    auto entryText = [&](const std::string& name) { return textFrom(cuda, ") " + name + "(", "\n}\n"); };
    const std::string q =
        "const int culift_tx = (int)(threadIdx.x / 32 % 2 * 8 + threadIdx.x % 8), culift_ty = "
        "(int)(threadIdx.x / 64 * 4 + threadIdx.x % 32 / 8);";
    const std::string row = "const int culift_tx = threadIdx.x % 16, culift_ty = threadIdx.x / 16;";
    // A function of the entry's (a 128-wide tile's form), by name.
    auto formText = [&](const std::string& name) { return textFrom(cuda, " void " + name + "(", "\n}\n"); };
    CHECK(formText("culift_Gemm_tiled128_whole").find(q) != std::string::npos);
    CHECK(formText("culift_Gemm_tiled128_edge").find(q) != std::string::npos);
    for (const char* name : {"culift_Gemm_tiled64_whole", "culift_Gemm_tiled64_edge"}) {
      INFO(name);
      CHECK(formText(name).find(row) != std::string::npos);
    }
    // 128-wide tiles of two staged arrays take 4 x 8 a warp whether or not an operand is grouped.
    CHECK(entryText("Gram_sym128").find(q) != std::string::npos);
    for (const char* name : {"culift_Gram_tiled128_whole", "culift_Gram_tiled128_edge"}) {
      INFO(name);
      CHECK(formText(name).find(q) != std::string::npos);
    }
    // The 128-wide exact tiles come in two forms: the entry's kernel takes the whole form (inlined)
    // for the blocks where every tile is whole, the grouped operand aligned and the trip count a
    // multiple of the step; its edge kernel, launched after it over the same grid, the other form
    // for the other blocks.
    const std::string gemm128 = entryText("Gemm_tiled128"), gemm128Edge = entryText("Gemm_tiled128_edge");
    const std::string test = "culift_whole && culift_w1 && culift_trip % 16 == 0 && culift_trip <= 2147418112";
    CHECK(gemm128.find("if (" + test + ") {\n    culift_Gemm_tiled128_whole(") != std::string::npos);
    CHECK(gemm128.find("culift_Gemm_tiled128_edge(") == std::string::npos);
    CHECK(gemm128Edge.find("if (!(" + test + ")) {\n    culift_Gemm_tiled128_edge(") != std::string::npos);
    CHECK(gemm128Edge.find("culift_Gemm_tiled128_whole(") == std::string::npos);
    CHECK(cuda.find("__launch_bounds__(256, 2) Gemm_tiled128_edge(") != std::string::npos);
    // The edge kernel may start beside the entry's last wave: the entry lets it at once, its first
    // block waits for the whole entry before anything else; an entry without one lets nothing.
    CHECK(gemm128.find(") {\n  culift_start_edge();") != std::string::npos);
    CHECK(gemm128Edge.find(") {\n  culift_wait_for_entry();") != std::string::npos);
    CHECK(gemm128.find("culift_wait_for_entry") == std::string::npos);
    CHECK(gemm128Edge.find("culift_start_edge") == std::string::npos);
    const std::string triangle = entryText(gram.planEntries[0].kernelName);
    CHECK(triangle.find("culift_bi") != std::string::npos);
    CHECK(triangle.find("culift_start_edge") == std::string::npos);
    CHECK(gemm.planEntries[0].edgeKernel);
    CHECK(gemm.planEntries[1].edgeKernel);
    CHECK_FALSE(gram.planEntries[0].edgeKernel);  // the triangle's tiles: one form
    CHECK(gram.planEntries[2].edgeKernel);
    // The test reads values the same in every thread: the grouped operand's block's first group.
    CHECK(gemm128.find("__syncthreads_and") == std::string::npos);
    CHECK(gemm128.find("B: its block's first group of 4 rows in whole tiles") != std::string::npos);
    CHECK(gemm128.find("threadIdx") == std::string::npos);
    CHECK(gemm128Edge.find("threadIdx") == std::string::npos);
    CHECK(cuda.find("__device__ __forceinline__ void culift_Gemm_tiled128_whole(") != std::string::npos);
    CHECK(cuda.find("__device__ __forceinline__ void culift_Gemm_tiled128_edge(") != std::string::npos);
    CHECK(entryText("Gram_tiled128")
              .find("if (culift_whole && culift_trip % 16 == 0 && culift_trip <= 2147418112) {\n    "
                    "culift_Gram_tiled128_whole(") != std::string::npos);
    const std::string whole = formText("culift_Gemm_tiled128_whole"), edge = formText("culift_Gemm_tiled128_edge");
    // The whole form: no checked copy, no partial step of k; the int indices' offsets in 32 bits.
    const std::string checkedCopy = "culift_kc + culift_q < culift_trip", partialStep = "culift_kk < (int)(culift_trip";
    CHECK(whole.find(checkedCopy) == std::string::npos);
    CHECK(whole.find(partialStep) == std::string::npos);
    CHECK(whole.find("A + (int)((unsigned)culift_x0 + (unsigned)culift_kc * (unsigned)culift_dk0)") !=
          std::string::npos);
    // ... and k counted in 32 bits (the dispatch takes it for trip counts that leave room).
    CHECK(whole.find("unsigned culift_x0, culift_dk0, culift_du0;") != std::string::npos);
    // The whole form: k 16 a tile in two stages, the tiles in rounds of two whose stages are
    // constants; the checked form: k 8 in three stages, counted, within the same shared memory.
    CHECK(whole.find("for (int culift_kr = 0; culift_kr < culift_trip; culift_kr += 32)") != std::string::npos);
    CHECK(whole.find("for (int culift_st = 0; culift_st < 2; ++culift_st)") != std::string::npos);
    CHECK(whole.find("const int culift_kt = culift_kr + culift_st * 16;") != std::string::npos);
    CHECK(whole.find("typedef float culift_s0_t[2][16][132];") != std::string::npos);
    CHECK(edge.find("typedef float culift_s0_t[3][8][132];") != std::string::npos);
    CHECK(edge.find("culift_st = culift_st == 2 ? 0 : culift_st + 1;") != std::string::npos);
    CHECK(edge.find("long long culift_x0, culift_dk0, culift_du0;") != std::string::npos);
    CHECK(edge.find("for (long long culift_kt = 0;") != std::string::npos);
    CHECK(whole.find("B + (int)((unsigned)culift_y1 + (unsigned)culift_kc * (unsigned)culift_dk1)") !=
          std::string::npos);
    CHECK(edge.find(checkedCopy) != std::string::npos);
    CHECK(edge.find(partialStep) != std::string::npos);
    // The whole form stores four consecutive columns at once where the output's rows are 16-byte
    // groups (one by one elsewhere); the checked form one by one, each behind its test.
    CHECK(whole.find("const bool culift_vo = (culift_nj & 3) == 0 && (reinterpret_cast<unsigned long long>(culift_out) "
                     "& 15) == 0;") != std::string::npos);
    CHECK(whole.find("*reinterpret_cast<float4*>(&culift_out[(long long)i * culift_nj + j]) = "
                     "make_float4(culift_rv[0], culift_rv[1], culift_rv[2], culift_rv[3]);") != std::string::npos);
    CHECK(whole.find("culift_out[(long long)i * culift_nj + j] = culift_rv[culift_n - culift_g];") !=
          std::string::npos);
    CHECK(edge.find("culift_rv") == std::string::npos);
    CHECK(edge.find("float4") == std::string::npos);
    CHECK(edge.find("A + (culift_x0 + culift_kc * culift_dk0)") != std::string::npos);
    // The 64-wide tiles come in two forms too (the whole one inlined); the triangle's keep one form
    // (its checked form spilled as a function of its own).
    CHECK(cuda.find("__device__ __forceinline__ void culift_Gemm_tiled64_whole(") != std::string::npos);
    CHECK(formText("culift_Gemm_tiled64_whole").find(checkedCopy) == std::string::npos);
    CHECK(formText("culift_Gemm_tiled64_edge").find(checkedCopy) != std::string::npos);
    CHECK(cuda.find("culift_Gram_sym128_whole") == std::string::npos);
    CHECK(cuda.find("culift_Gram_sym64_whole") == std::string::npos);
    CHECK(entryText("Gram_sym128").find(checkedCopy) != std::string::npos);
  }
  // Locals standing for i * n and j * n are compared as what they stand for; the early return
  // on the diagonal is symmetric too.
  CHECK(function(r, "Dist").loopPlan == LoopPlan::SymmetricTiledContraction);
  // a - b is not b - a.
  CHECK(function(r, "Skew").loopPlan == LoopPlan::TiledContraction);

  const Function& matvec = function(r, "MatVec");
  CHECK(matvec.loopPlan == LoopPlan::RowReduction);
  CHECK(entryNames(matvec) == std::vector<std::string>{"MatVec_rows32", "MatVec_rows8"});
  CHECK(function(r, "Scale").loopPlan == LoopPlan::RowReduction);
  // Each tile's two forms share its stages in dynamic shared memory (at 128 wide the whole form's
  // two stages of 16 values of k, the checked form's three of 8 within them; at 64, three of 16).
  CHECK(gemm.planEntries[0].sharedBytes == 2 * 2 * 16 * (128 + 4) * 4);
  CHECK(gemm.planEntries[1].sharedBytes == 2 * 3 * 16 * (64 + 4) * 4);

  // syr2k's A[j * nk + k] * alpha and B[j * nk + k] * alpha: their stages hold the products,
  // which each output reads (see "loop plans: a staged operand times a uniform factor").

  // syr2k: four staged arrays; three stages of their tiles take more than 48 KiB, so they are
  // dynamic shared memory.
  TranslateResult syr2k = lift(
      "CULIFT_KERNEL float Syr2k(const float* A, const float* B, const float* C, float alpha, int nk, int n, int i,\n"
      "                          int j) {\n"
      "  if (j > i) return C[i * n + j];\n"
      "  float s = 0.0f;\n"
      "  for (int k = 0; k < nk; ++k) s += A[j * nk + k] * alpha * B[i * nk + k] + B[j * nk + k] * alpha * A[i * nk + k];\n"
      "  return s;\n}\n");
  const Function& s2 = function(syr2k, "Syr2k");
  INFO(s2.loopPlanReason);
  CHECK(s2.loopPlan == LoopPlan::TiledContraction);
  // (Their fragments do not fit the 128-wide tile's 128 registers: that tile one block an SM.)
  REQUIRE(entryNames(s2) == std::vector<std::string>{"Syr2k_tiled128", "Syr2k_tiled64"});
  CHECK(s2.planEntries[0].sharedBytes == 4 * 3 * 8 * (128 + 4) * 4);
  CHECK(s2.planEntries[1].sharedBytes == 4 * 3 * 16 * (64 + 4) * 4);
  CHECK(syr2k.module->cudaSource.find("__launch_bounds__(256, 1) Syr2k_tiled128(") != std::string::npos);
  // Its four arrays keep 2 x 16 threads a warp (4 x 8 not measured there).
  CHECK(textFrom(syr2k.module->cudaSource, " void culift_Syr2k_tiled128_whole(", "\n}\n")
            .find("const int culift_tx = threadIdx.x % 16, culift_ty = threadIdx.x / 16;") != std::string::npos);
  CHECK(matvec.planEntries[0].sharedBytes == 0);  // static shared memory

  // Two staged double matrices and a vector: three stages of the 32-row entry's slices take more
  // than 48 KiB, so they are dynamic shared memory, carved from one array; the 8-row entry's fit.
  TranslateResult gesummv = lift(
      "CULIFT_KERNEL double Gesummv(const double* A, const double* B, const double* x, double alpha, double beta,\n"
      "                             int n, int i) {\n"
      "  double tmp = 0.0, y = 0.0;\n"
      "  for (int k = 0; k < n; ++k) { tmp += A[i * n + k] * x[k]; y += B[i * n + k] * x[k]; }\n"
      "  return alpha * tmp + beta * y;\n}\n");
  const Function& gs = function(gesummv, "Gesummv");
  CHECK(gs.loopPlan == LoopPlan::RowReduction);
  REQUIRE(entryNames(gs) == std::vector<std::string>{"Gesummv_rows32", "Gesummv_rows8"});
  CHECK(gs.planEntries[0].sharedBytes == 4 * (2 * 32 + 1) * 256);
  CHECK(gs.planEntries[1].sharedBytes == 0);
  CHECK(gesummv.module->cudaSource.find("extern __shared__ __align__(16) unsigned char culift_dynamic_shared[];") !=
        std::string::npos);
  // Three staged double matrices and a vector: three stages of 32 rows' slices in dynamic shared memory.
  TranslateResult three = lift(
      "CULIFT_KERNEL double Three(const double* A, const double* B, const double* C, const double* x, int n,\n"
      "                           int i) {\n"
      "  double s = 0.0;\n"
      "  for (int k = 0; k < n; ++k) s += (A[i * n + k] + B[i * n + k] + C[i * n + k]) * x[k];\n"
      "  return s;\n}\n");
  const Function& t3 = function(three, "Three");
  INFO(t3.loopPlanReason);
  CHECK(t3.loopPlan == LoopPlan::RowReduction);
  CHECK(t3.planEntries[0].sharedBytes == 3 * (3 * 32 + 1) * 256);
  // Four: only the 8-row entry's slices (512 bytes of 8 rows each) fit, in dynamic shared memory.
  TranslateResult four = lift(
      "CULIFT_KERNEL double Four(const double* A, const double* B, const double* C, const double* D,\n"
      "                          const double* x, int n, int i) {\n"
      "  double s = 0.0;\n"
      "  for (int k = 0; k < n; ++k) s += (A[i * n + k] + B[i * n + k] + C[i * n + k] + D[i * n + k]) * x[k];\n"
      "  return s;\n}\n");
  const Function& t4 = function(four, "Four");
  CHECK(t4.loopPlan == LoopPlan::RowReduction);
  REQUIRE(entryNames(t4) == std::vector<std::string>{"Four_rows8"});
  CHECK(t4.planEntries[0].sharedBytes == 4 * (4 * 8 + 1) * 512);

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
      CHECK(r.module->cudaSource.find("__global__ void __launch_bounds__(" + std::to_string(e.threads) +
                                      (e.tileRows >= 128 && e.tileCols >= 128 ? ", 2" : "") + ") " + e.kernelName +
                                      "(") != std::string::npos);
}

TEST_CASE("loop plans: why a loop runs per thread", "[loop-plan]") {
  // Each step overwrites s: only the last counts, and no tile of x serves the rest.
  CHECK(reasonFor(
            "CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
            "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s = x[i * n + k] * x[j * n + k];\n  return s;\n}\n") ==
        "s is overwritten on every step of the loop over k (only the last step counts): nothing to tile");
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
        "no array read in the loop is indexed by (j, t) or (k, t) (i, the first index, is the batch)");
}

TEST_CASE("loop plans: a staged operand times a uniform factor", "[loop-plan][tiled]") {
  // Staged as the products where every read of the operand is a factor of one, the other factor a
  // literal or a scalar parameter nothing assigns, of the element's type, the same at every read.
  auto gemm = [](const std::string& fn, const std::string& params, const std::string& term,
                 const std::string& before = "") {
    return "CULIFT_KERNEL float " + fn + "(const float* A, const float* B" + params +
           ", int nk, int nj, int i, int j) {\n" + before +
           "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += " + term + ";\n  return s;\n}\n";
  };
  TranslateResult r = lift(
      gemm("Scaled", ", float alpha", "alpha * A[i * nk + k] * B[k * nj + j]") +
      gemm("Literal", "", "A[i * nk + k] * 0.5f * B[k * nj + j]") +
      gemm("Raw", ", float alpha", "alpha * A[i * nk + k] * B[k * nj + j] + A[i * nk + k]") +
      gemm("TwoFactors", ", float alpha, float beta", "alpha * A[i * nk + k] * B[k * nj + j] + beta * A[i * nk + k]") +
      gemm("Assigned", ", float alpha", "alpha * A[i * nk + k] * B[k * nj + j]", "  alpha += 1.0f;\n") +
      gemm("Wider", ", double alpha", "alpha * A[i * nk + k] * B[k * nj + j]") +
      "CULIFT_KERNEL float Syr2k(const float* A, const float* B, float alpha, int nk, int i, int j) {\n"
      "  float s = 0.0f;\n"
      "  for (int k = 0; k < nk; ++k) s += A[j * nk + k] * alpha * B[i * nk + k] + B[j * nk + k] * alpha * A[i * "
      "nk + k];\n"
      "  return s;\n}\n");
  const std::string& cuda = r.module->cudaSource;
  auto entry = [&](const std::string& name) {
    return textFrom(cuda, "#if !defined(CULIFT_ONLY_ENTRIES) || defined(CULIFT_ENTRY_" + name + ")", "#endif");
  };
  const std::string scale0 =
      "culift_s0[culift_st][culift_q][culift_r] = culift_s0[culift_st][culift_q][culift_r] * alpha;";
  for (const char* e : {"Scaled_tiled128", "Scaled_tiled64"}) {
    INFO(e);
    const std::string text = entry(e);
    CHECK(text.find("// A's elements this thread copied, times alpha (every output multiplies them so)") !=
          std::string::npos);
    CHECK(text.find(scale0) != std::string::npos);
    CHECK(text.find("+= culift_v0[culift_m] * culift_v1[culift_n];") != std::string::npos);
    // After the wait for the thread's copies, before the barrier that shows the stage to the block.
    const std::size_t at = text.find(scale0);
    CHECK(text.rfind("culift_copy_wait<", at) != std::string::npos);
    const std::size_t barrier = text.find("__syncthreads();", at);
    CHECK(barrier != std::string::npos);
    CHECK(text.find("culift_v0[", at) > barrier);
  }
  CHECK(entry("Literal_tiled64").find("culift_s0[culift_st][culift_q][culift_r] * 0.5f;") != std::string::npos);
  for (const char* e : {"Raw_tiled64", "TwoFactors_tiled64", "Assigned_tiled64", "Wider_tiled64"}) {
    INFO(e);
    CHECK(entry(e).find("this thread copied, times") == std::string::npos);
  }
  // syr2k: the two operands of the rows j, each times alpha.
  const std::string syr2k = entry("Syr2k_tiled64");
  CHECK(syr2k.find("// A's elements this thread copied, times alpha") != std::string::npos);
  CHECK(syr2k.find("// B's elements this thread copied, times alpha") != std::string::npos);
  CHECK(syr2k.find("(culift_v0[culift_n] * culift_v1[culift_m]) + (culift_v2[culift_n] * culift_v3[culift_m])") !=
        std::string::npos);
}

TEST_CASE("loop plans: batched tiled contractions of 3-D kernels", "[loop-plan][batched]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL_INDEX(b, i, j) float Bmm(const float* A, const float* B, int m, int nk, int n, int b, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[(b * m + i) * nk + k] * B[(b * nk + k) * n + j];\n"
      "  return s;\n}\n"
      "CULIFT_KERNEL_INDEX(r, q, p) float Doitgen(const float* A, const float* C4, int nq, int np, int ns, int r,\n"
      "                                           int q, int p) {\n"
      "  float s = 0.0f;\n  for (int t = 0; t < ns; ++t) s += A[(r * nq + q) * ns + t] * C4[t * np + p];\n"
      "  return s;\n}\n"
      "CULIFT_KERNEL_INDEX(b, i, j) float Shared(const float* x, const float* y, int n, int b, int i, int j) {\n"
      "  const int ri = i * n;\n  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[ri + k] * y[j * n + k];\n"
      "  return s + b;\n}\n");
  for (const char* name : {"Bmm", "Doitgen", "Shared"}) {
    const Function& f = function(r, name);
    INFO(name << ": " << culift::name(f.loopPlan) << " (" << f.loopPlanReason << ")");
    CHECK(f.loopPlan == LoopPlan::BatchedTiledContraction);
    CHECK(entryNames(f) ==
          std::vector<std::string>{std::string(name) + "_batched128", std::string(name) + "_batched64"});
    REQUIRE(f.planEntries.size() == 2);
    CHECK(f.planEntries[0].blockMapping() == BlockMapping::BatchedTiles2D);
    CHECK(f.planEntries[0].tileRows == 128);
    CHECK(f.planEntries[1].tileCols == 64);
    CHECK(f.planEntries[0].threads == 256);
    CHECK_FALSE(f.planEntries[0].squareOnly);
  }
  CHECK(std::string(culift::name(LoopPlan::BatchedTiledContraction)) == "batched tiled contraction");
  // The batched tiles come in two forms of one batch each, both calls (registers of their own); the
  // entry's kernel loops over its batches and takes the whole form for the batches its block finds
  // whole, the edge kernel the other form for the others.
  {
    const std::string& cuda = r.module->cudaSource;
    const std::string bmm = textFrom(cuda, ") Bmm_batched128(", "\n}\n");
    CHECK(bmm.find("for (int b = (int)(culift_first + blockIdx.z); b < culift_nb; b += (int)gridDim.z)") !=
          std::string::npos);
    CHECK(bmm.find("culift_Bmm_batched128_whole(A, B, m, nk, n, culift_out, culift_rows, culift_cols, culift_depth, "
                   "culift_first, b);") != std::string::npos);
    CHECK(bmm.find("culift_Bmm_batched128_edge(") == std::string::npos);
    const std::string edge = textFrom(cuda, ") Bmm_batched128_edge(", "\n}\n");
    CHECK(edge.find("for (int b = (int)(culift_first + blockIdx.z); b < culift_nb; b += (int)gridDim.z)") !=
          std::string::npos);
    CHECK(edge.find("culift_Bmm_batched128_edge(A, B, m, nk, n, culift_out, culift_rows, culift_cols, culift_depth, "
                    "culift_first, b);\n      __syncthreads();") != std::string::npos);
    CHECK(edge.find("culift_Bmm_batched128_whole(") == std::string::npos);
    CHECK(bmm.find(") {\n  culift_start_edge();") != std::string::npos);
    CHECK(edge.find(") {\n  culift_wait_for_entry();") != std::string::npos);
    CHECK(cuda.find("__device__ __noinline__ void culift_Bmm_batched128_whole(") != std::string::npos);
    CHECK(cuda.find("__device__ __noinline__ void culift_Bmm_batched128_edge(") != std::string::npos);
    CHECK(cuda.find("const int b = culift_batch;") != std::string::npos);
    CHECK(cuda.find("__device__ __noinline__ void culift_Bmm_batched64_whole(") != std::string::npos);
  }
  // The operands: A along i (rows) with the batch in its index, C4 along p (columns) without it.
  const codegen::KernelAnalysis doitgen = codegen::analyzeKernel(function(r, "Doitgen"));
  REQUIRE(doitgen.loop);
  REQUIRE(doitgen.loop->operands.size() == 2);
  CHECK(doitgen.loop->batch == static_cast<VarId>(function(r, "Doitgen").indexParams[0]));
  CHECK(doitgen.loop->operands[0].axis == 0);
  CHECK(doitgen.loop->operands[1].axis == 1);
}

TEST_CASE("loop plans: why a 3-D loop is no batched contraction", "[loop-plan][batched]") {
  const std::string head =
      "CULIFT_KERNEL_INDEX(b, i, j) float f(const float* x, const float* y, int n, int b, int i, int j) {\n"
      "  float s = 0.0f;\n";
  // A read along both i and j (a row per output).
  CHECK(reasonFor(head + "  for (int k = 0; k < n; ++k) s += x[(b * n + i) * n + j + k];\n  return s;\n}\n") ==
        "the index of x depends on both i and j");
  // Reads at the batch and k only: no tile of outputs shares them.
  CHECK(reasonFor(head + "  for (int k = 0; k < n; ++k) s += x[b * n + k] * y[k];\n  return s;\n}\n") ==
        "no array read in the loop is indexed by (i, k) or (j, k) (b, the first index, is the batch)");
  CHECK(reasonFor(head + "  for (int k = 0; k <= i; ++k) s += x[i * n + k] * y[k * n + j];\n  return s;\n}\n") ==
        "the bound of k depends on i");
  CHECK(reasonFor(head + "  b = b % 2;\n  for (int k = 0; k < n; ++k) s += x[i * n + k] * y[k * n + j];\n"
                         "  return s;\n}\n") == "the index parameter b is assigned");
  CHECK(reasonFor(head + "  for (int k = 0; k < n; ++k) { if (x[k] > 0.0f) break; s += y[(b * n + i) * n + k]; }\n"
                         "  return s;\n}\n") == "the loop leaves early (break)");
}

namespace {

// The plan of function f in `code` and, when it keeps its order, the reason.
std::pair<LoopPlan, std::string> reassociation(const std::string& code, TranslateOptions options = {}) {
  TranslateResult r = lift(code, std::move(options));
  const Function& f = function(r, "f");
  return {f.loopPlan, f.loopPlanReason};
}

}  // namespace

// A loop in a helper the kernel calls stays per thread, and the remark says where it is.
TEST_CASE("loop plans: a loop in a callee is named", "[loop-plan]") {
  const std::string helper =
      "inline float rowMax(const float* x, int cols, int i) {\n"
      "  float m = x[i * cols];\n"
      "  for (int k = 1; k < cols; ++k) m = x[i * cols + k] > m ? x[i * cols + k] : m;\n  return m;\n}\n"
      "inline float viaHelper(const float* x, int cols, int i) { return rowMax(x, cols, i); }\n";
  CHECK(reasonFor(helper + "CULIFT_KERNEL float f(const float* x, int cols, int i) { return rowMax(x, cols, i); }\n") ==
        "the loop is in 'rowMax', which the planner does not see through: write it in the kernel's body to plan it");
  // Through a second call too.
  CHECK_THAT(reasonFor(helper +
                       "CULIFT_KERNEL float f(const float* x, int cols, int i) { return viaHelper(x, cols, i); }\n"),
             Catch::Contains("the loop is in 'rowMax'"));
  // Without a loop anywhere, the remark stays empty ("the body has no loop" in `culift ast`).
  CHECK(reasonFor("inline float twice(float v) { return 2.0f * v; }\n"
                  "CULIFT_KERNEL float f(const float* x, int i) { return twice(x[i]); }\n")
            .empty());
}

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
  CHECK(total.loopPlan == LoopPlan::SplitRowReduction);
  CHECK(entryNames(total) == std::vector<std::string>{"Total_split", "Total_warp"});
  CHECK(total.planEntries[0].threads == 256);
  CHECK(total.planEntries[0].tileCols == 256);  // slots per row
  CHECK(total.planEntries[0].blockMapping() == BlockMapping::SplitRows);
  CHECK(total.planEntries[1].threads == 256);
  CHECK(total.planEntries[1].tileRows == 8);
  CHECK(total.planEntries[1].plan == LoopPlan::ReassociatingRowReduction);
  REQUIRE(total.reassociatedSums.size() == 1);
  CHECK(total.vars[total.reassociatedSums[0]].name == "s");
  CHECK(total.loopPlanReason.empty());
  const Function& two = function(r, "Two");
  CHECK(two.loopPlan == LoopPlan::SplitRowReduction);
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
            .first == LoopPlan::SplitRowReduction);
}

TEST_CASE("loop plans: split rows, and where a warp per row suffices", "[loop-plan]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL_REASSOCIATE float Long(const float* x, long long n, int i) {\n"
      "  float s = 0.0f;\n  for (long long k = 0; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n"
      "CULIFT_KERNEL_REASSOCIATE float Chunk(const float* x, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k <= 4095; ++k) s += x[i * 4096 + k];\n  return s;\n}\n"
      "CULIFT_KERNEL_REASSOCIATE float Over(const float* x, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < 4097; ++k) s += x[i * 4097 + k];\n  return s;\n}\n");
  const Function& along = function(r, "Long");
  CHECK(along.loopPlan == LoopPlan::SplitRowReduction);
  CHECK(std::string(name(LoopPlan::SplitRowReduction)) == "split-row reduction");
  CHECK(entryNames(along) == std::vector<std::string>{"Long_split", "Long_warp"});
  // A loop of at most one chunk (4096 iterations, the bound inclusive here) gains nothing from
  // splitting: the warp per row, with the reason.
  const Function& chunk = function(r, "Chunk");
  CHECK(chunk.loopPlan == LoopPlan::ReassociatingRowReduction);
  CHECK(chunk.loopPlanReason == "the loop has at most 4096 iterations (one chunk): a warp per row adds it");
  CHECK(entryNames(chunk) == std::vector<std::string>{"Chunk_warp"});
  CHECK(function(r, "Over").loopPlan == LoopPlan::SplitRowReduction);
  CHECK(moduleFileId(LoopPlan::SplitRowReduction) == 5);
}

TEST_CASE("loop plans: row statistics of the same rows get a fused kernel", "[loop-plan][fused]") {
  TranslateResult r = lift(
      "#include <algorithm>\n"
      "CULIFT_KERNEL_REASSOCIATE float Sum(const float* x, int cols, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < cols; ++k) s += x[i * cols + k];\n  return s;\n}\n"
      "CULIFT_KERNEL_REASSOCIATE double SumSq(const float* x, int cols, int i) {\n"
      "  double s = 0.0;\n  for (int k = 0; k < cols; ++k) { const float v = x[i * cols + k]; s += v * v; }\n"
      "  return s / cols;\n}\n"
      // The same loop with another bound: no pair with the two above.
      "CULIFT_KERNEL_REASSOCIATE float Half(const float* x, int cols, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < cols / 2; ++k) s += x[i * cols + k];\n  return s;\n}\n"
      // Exact order: a mean and a maximum pair up, but not with the reassociated ones.
      "CULIFT_KERNEL float Mean(const float* x, int cols, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < cols; ++k) s += x[i * cols + k];\n  return s / cols;\n}\n"
      "CULIFT_KERNEL int Count(const float* x, int cols, int i) {\n"
      "  int c = 0;\n  for (int k = 0; k < cols; ++k) c += x[i * cols + k] > 0.0f;\n  return c;\n}\n"
      // Writes an array: never fused.
      "CULIFT_KERNEL float Keep(const float* x, float* seen, int cols, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < cols; ++k) s += x[i * cols + k];\n  seen[i] = s;\n  return s;\n}\n");
  std::vector<std::string> fused;
  for (const Function& f : r.module->functions)
    if (!f.fusedOf.empty()) fused.push_back(f.name);
  CHECK(fused == std::vector<std::string>{"Sum_SumSq_fused", "Mean_Count_fused"});

  const Function& both = function(r, "Sum_SumSq_fused");
  CHECK(both.fusedOf == std::vector<std::string>{"Sum", "SumSq"});
  CHECK(both.mode == IndexMode::Grid1D);
  CHECK(both.loopPlan == LoopPlan::SplitRowReduction);
  CHECK(entryNames(both) == std::vector<std::string>{"Sum_SumSq_fused_split", "Sum_SumSq_fused_warp"});
  CHECK(both.signature.toString() ==
        "(const float* x, int cols, float* Sum_out, double* SumSq_out, long long culift_n)");
  // Each sum reassociated, as in its own kernel.
  REQUIRE(both.reassociatedSums.size() == 2);
  CHECK(both.vars[both.reassociatedSums[0]].name == "s");
  CHECK(both.vars[both.reassociatedSums[1]].name == "s_SumSq");
  const std::string pseudo = writePseudocode(*r.module, both);
  INFO(pseudo);
  CHECK(pseudo.find("Sum_out[i] = s;") != std::string::npos);
  CHECK(pseudo.find("SumSq_out[i] = s_SumSq / (double)cols;") != std::string::npos);

  const Function& exact = function(r, "Mean_Count_fused");
  CHECK(exact.loopPlan != LoopPlan::PerThread);
  CHECK(exact.reassociatedSums.empty());
  CHECK(function(r, "Keep").fusedOf.empty());

  // Left out on request.
  TranslateOptions none;
  none.fuseRowStatistics = false;
  TranslateResult without = lift(
      "CULIFT_KERNEL float Mean(const float* x, int cols, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < cols; ++k) s += x[i * cols + k];\n  return s / cols;\n}\n"
      "CULIFT_KERNEL int Count(const float* x, int cols, int i) {\n"
      "  int c = 0;\n  for (int k = 0; k < cols; ++k) c += x[i * cols + k] > 0.0f;\n  return c;\n}\n",
      none);
  REQUIRE(without.ok());
  CHECK(without.module->functions.size() == 2);

  // The fused kernels survive a module file.
  const std::shared_ptr<Module> loaded = loadModule(saveModule(*r.module));
  const Function* again = loaded->find("Sum_SumSq_fused");
  REQUIRE(again);
  CHECK(again->fusedOf == both.fusedOf);
  CHECK(loaded->find("Sum")->fusedOf.empty());
}

TEST_CASE("loop plans: the exact order's dependent chain is named, with what lifts it", "[loop-plan]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL float Sum(const float* x, int cols, int i) {\n"
      "  float acc = 0.0f;\n  for (int k = 0; k < cols; ++k) acc += x[i * cols + k];\n  return acc;\n}\n"
      "CULIFT_KERNEL double Fixed(const double* x, int i) {\n"
      "  double acc = 0.0;\n  for (int k = 0; k < 300; ++k) acc += x[i * 300 + k];\n  return acc;\n}\n"
      "CULIFT_KERNEL float Scaled(const float* x, int cols, int i) {\n"
      "  float acc = 0.0f;\n  for (int k = 0; k < cols; ++k) acc = acc * 0.5f + x[i * cols + k];\n"
      "  return acc;\n}\n");
  const Function& sum = function(r, "Sum");
  CHECK(sum.loopPlan == LoopPlan::RowReduction);
  CHECK(sum.loopPlanReason ==
        "exact order: each output adds its terms to acc in one chain of cols dependent additions; "
        "CULIFT_KERNEL_REASSOCIATE lifts it");
  CHECK(function(r, "Fixed").loopPlanReason ==
        "exact order: each output adds its terms to acc in one chain of 300 dependent additions; "
        "CULIFT_KERNEL_REASSOCIATE lifts it");
  // A loop reassociation could not lift says nothing of it.
  CHECK(function(r, "Scaled").loopPlan == LoopPlan::RowReduction);
  CHECK(function(r, "Scaled").loopPlanReason.empty());
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
            .first == LoopPlan::SplitRowReduction);
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

namespace {

// The plan and remark of function f in `code`.
std::pair<LoopPlan, std::string> stencilPlan(const std::string& code) {
  TranslateResult r = lift(code);
  const Function& f = function(r, "f");
  return {f.loopPlan, f.loopPlanReason};
}

}  // namespace

TEST_CASE("loop plans: stencils stage a tile and its halo, in 2-D and 3-D", "[loop-plan][stencil]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL float Jacobi(const float* A, int n, int i, int j) {\n"
      "  if (i == 0 || i == n - 1 || j == 0 || j == n - 1) return A[i * n + j];\n"
      "  return 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + 1 + j] + A[(1 + i) * n + j] + A[(i - 1) * n + j]);\n"
      "}\n"
      "CULIFT_KERNEL float Blur(const float* x, const float* w, int m, int i, int j) {\n"
      "  float s = 0.0f;\n"
      "  for (int di = -2; di <= 2; ++di)\n"
      "    for (int dj = 0; dj < 3; ++dj) s += w[(di + 2) * 3 + dj] * x[(i + di + 2) * m + j + dj];\n"
      "  return s;\n}\n"
      "CULIFT_KERNEL void Heat(const double* A, double* B, int n, int i, int j, int k) {\n"
      "  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1 && k >= 1 && k < n - 1)\n"
      "    B[(i * n + j) * n + k] = A[((i + 1) * n + j) * n + k] + A[((i - 1) * n + j) * n + k] +\n"
      "                             A[(i * n + j + 1) * n + k] + A[(i * n + j) * n + k - 1] - 4.0 * A[(i * n + j) * n + k];\n"
      "  else\n    B[(i * n + j) * n + k] = A[(i * n + j) * n + k];\n}\n"
      "CULIFT_KERNEL float Conv(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {\n"
      "  const int c = (i * nj + j) * nk + k;\n"
      "  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];\n"
      "  float s = 0.0f;\n"
      "  for (int di = -1; di <= 1; ++di)\n    for (int dj = -1; dj <= 1; ++dj)\n"
      "      for (int dk = -1; dk <= 1; ++dk) s += w[(di + 1) * 9 + (dj + 1) * 3 + dk + 1] * A[c + (di * nj + dj) * nk + dk];\n"
      "  return s;\n}\n"
      "CULIFT_KERNEL float Twice(const float* x, int n, int i, int j) { return x[i * n + j] * 2.0f; }\n");

  const Function& jacobi = function(r, "Jacobi");
  CHECK(jacobi.loopPlan == LoopPlan::Stencil);
  CHECK(jacobi.loopPlanReason == "halo x -1..+1, y -1..+1");
  // 16 rows per thread, and 2 for launches too small to fill the device with the first.
  REQUIRE(entryNames(jacobi) == std::vector<std::string>{"Jacobi_walk", "Jacobi_walk2"});
  CHECK(jacobi.planEntries[0].tileRows == 128);
  CHECK(jacobi.planEntries[1].tileRows == 16);
  CHECK(jacobi.planEntries[0].tileCols == 32);
  CHECK(jacobi.planEntries[0].threads == 256);
  CHECK(jacobi.planEntries[0].blockMapping() == BlockMapping::Tiles2D);
  // Offsets that window loops walk, asymmetric ones included.
  const Function& blur = function(r, "Blur");
  CHECK(blur.loopPlan == LoopPlan::Stencil);
  CHECK(blur.loopPlanReason == "halo x 0..+2, y 0..+4");

  const Function& heat = function(r, "Heat");
  CHECK(heat.loopPlan == LoopPlan::Stencil3D);
  CHECK(heat.loopPlanReason == "halo x -1..0, y 0..+1, z -1..+1");
  REQUIRE(entryNames(heat) == std::vector<std::string>{"Heat_walk3d"});
  CHECK(heat.planEntries[0].blockMapping() == BlockMapping::Slabs3D);
  // Window loops: the windows in registers first, the cache walk beside them.
  const Function& conv = function(r, "Conv");
  CHECK(conv.loopPlan == LoopPlan::Stencil3DWindows);
  CHECK(conv.loopPlanReason == "halo x -1..+1, y -1..+1, z -1..+1");
  REQUIRE(entryNames(conv) == std::vector<std::string>{"Conv_win3d4", "Conv_win3d4n", "Conv_win3d", "Conv_walk3d"});
  CHECK(conv.planEntries[0].blockMapping() == BlockMapping::Slabs3DWindows);
  CHECK(conv.planEntries[0].tileCols == 128);  // four outputs along k a thread
  CHECK(conv.planEntries[0].tileRows == 16);   // ... and two along j (its planes streamed)
  CHECK(conv.planEntries[0].threads == 256);
  // The same form in narrow tiles: 32 x 32 outputs, 8 threads along k x 16 along j.
  CHECK(conv.planEntries[1].blockMapping() == BlockMapping::Slabs3DWindows);
  CHECK(conv.planEntries[1].tileCols == 32);
  CHECK(conv.planEntries[1].tileRows == 32);
  CHECK(conv.planEntries[1].threads == 128);
  CHECK(conv.planEntries[2].blockMapping() == BlockMapping::Slabs3DWindows);
  CHECK(conv.planEntries[2].tileCols == 32);
  CHECK(conv.planEntries[2].tileRows == 8);
  CHECK(conv.planEntries[3].blockMapping() == BlockMapping::Slabs3D);
  // The streamed entry of eight outputs a thread holds two blocks of 256 threads a multiprocessor
  // or four of 128 (the runtime's slabs follow); the others do not say.
  CHECK(conv.planEntries[0].blocksPerSm == 2);
  CHECK(conv.planEntries[1].blocksPerSm == 4);
  CHECK(conv.planEntries[2].blocksPerSm == 0);
  CHECK(conv.planEntries[3].blocksPerSm == 0);
  CHECK(std::string(name(LoopPlan::Stencil3DWindows)) == "stencil, 2.5-D blocking, windows in registers");
  CHECK(std::string(name(LoopPlan::Stencil)) == "stencil");

  // One read per output is no stencil: the plan says nothing.
  CHECK(function(r, "Twice").loopPlan == LoopPlan::PerThread);
  CHECK(function(r, "Twice").loopPlanReason.empty());

  // The entries are emitted; each output runs the per-thread entry's statement.
  for (const std::string entry : {"Jacobi_walk", "Jacobi_walk2", "Blur_walk", "Conv_walk3d", "Conv_win3d"})
    CHECK(r.module->cudaSource.find("__launch_bounds__(256) " + entry + "(") != std::string::npos);
  // Eight outputs a thread (4 along k x 2 along j) over the 27-point convolution's windows of
  // floats, its planes streamed into running sums: two blocks an SM (at most 128 registers a thread).
  CHECK(r.module->cudaSource.find("__launch_bounds__(256, 2) Conv_win3d4(") != std::string::npos);
  // ... and in narrow tiles: its threads 8 along k, 16 along j; its tiles of 34 x 40 floats.
  const std::size_t narrow = r.module->cudaSource.find("__launch_bounds__(128, 4) Conv_win3d4n(");
  REQUIRE(narrow != std::string::npos);
  CHECK(r.module->cudaSource.find("const int culift_k = (blockIdx.x * 8 + threadIdx.x % 8) * 4, culift_j = "
                                  "blockIdx.y * 32 + threadIdx.x / 8 * 2;",
                                  narrow) != std::string::npos);
  CHECK(r.module->cudaSource.find("34 rows x 40 columns", narrow) != std::string::npos);
  // A 3-D entry without loops asks for six blocks per multiprocessor; one with window loops does not.
  CHECK(r.module->cudaSource.find("__launch_bounds__(256, 6) Heat_walk3d(") != std::string::npos);
  CHECK(r.module->cudaSource.find("culift_out[culift_i * culift_nj + culift_j] = Jacobi(") != std::string::npos);
  // The windows' entry runs the body through a copy whose reads of A take the registers, its window
  // loops unrolled; it takes the arrays' element counts.
  const std::size_t win = r.module->cudaSource.find("Conv_win3d_at(");
  REQUIRE(win != std::string::npos);
  CHECK(r.module->cudaSource.find("#pragma unroll\n  for (int di = -1;", win) != std::string::npos);
  CHECK(
      r.module->cudaSource.find("culift_w0[(culift_slot + (0 + 1 * di) - (-1)) % 3][(0 + 1 * dj) - (-1)][culift_col + "
                                "(0 + 1 * dk) - (-1)]",
                                win) != std::string::npos);
  CHECK(r.module->cudaSource.find(
            "long long culift_first, long long culift_len0, long long culift_len1, long long culift_len5)") !=
        std::string::npos);
}

TEST_CASE("loop plans: stencils over rows and planes of literal size", "[loop-plan][stencil]") {
  // The offsets of a constant coefficient are its nearest whole multiples, largest first:
  // (i + 2) * 10 + j - 1 is i one row down and j one to the left, not j 19 to the right.
  TranslateResult r = lift(
      "CULIFT_KERNEL float Padded(const float* x, int i, int j) {\n"
      "  return x[(i + 2) * 10 + j - 1] + x[(i + 1) * 10 + j + 1] - x[i * 10 + j];\n}\n"
      "CULIFT_KERNEL double Window(const unsigned char* a, unsigned i, unsigned j, unsigned k) {\n"
      "  double acc = 0.0;\n"
      "  for (int d = -1; d < 2; ++d)\n"
      "    for (int e = -1; e < 2; ++e)\n"
      "      acc = acc + 0.5 * a[((((int)i + 1 + d) * 6) + ((int)j + 1)) * 6 + ((int)k + 1 + e)];\n"
      "  return acc;\n}\n"
      "CULIFT_KERNEL void Store(const float* x, float* y, int i, int j) {\n"
      "  y[i * 10 + j + 5] = x[(i + 1) * 10 + j] + x[i * 10 + j];\n}\n");
  const Function& padded = function(r, "Padded");
  CHECK(padded.loopPlan == LoopPlan::Stencil);
  CHECK(padded.loopPlanReason == "halo x -1..+1, y 0..+2");
  const Function& window = function(r, "Window");
  CHECK(window.loopPlan == LoopPlan::Stencil3DWindows);
  CHECK(window.loopPlanReason == "halo x 0..+2, y 0..+1, z 0..+2");
  // A result of 8 bytes keeps the device assembler's own register count.
  CHECK(r.module->cudaSource.find("__launch_bounds__(256) Window_win3d4(") != std::string::npos);
  // A write five elements along a row of ten is no output's own element.
  const Function& store = function(r, "Store");
  CHECK(store.loopPlan == LoopPlan::PerThread);
  CHECK(store.loopPlanReason == "y is written at another index than the output's own");
}

TEST_CASE("loop plans: four outputs of 4-byte windows take the planes through shared memory", "[loop-plan][stencil]") {
  // Conv: a pure body; its early return becomes a select and the four outputs run unguarded.
  // Quot: an integer quotient by a parameter (undefined by zero) keeps the branch. Loaded: a read
  // of a third array outside the windows keeps it too. Wide: doubles keep the loads from global
  // memory.
  const std::string conv =
      "  const int c = (i * nj + j) * nk + k;\n"
      "  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];\n"
      "  float s = 0.0f;\n"
      "  for (int di = -1; di <= 1; ++di)\n    for (int dj = -1; dj <= 1; ++dj)\n"
      "      for (int dk = -1; dk <= 1; ++dk) s += w[(di + 1) * 9 + (dj + 1) * 3 + dk + 1] * A[c + (di * nj + dj) * nk + dk];\n";
  TranslateResult r = lift(
      "CULIFT_KERNEL float Conv(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {\n" +
      conv +
      "  return s;\n}\n"
      "CULIFT_KERNEL float Quot(const float* A, const float* w, int ni, int nj, int nk, int q, int i, int j, int k) {\n" +
      conv +
      "  return s + (float)(k / q);\n}\n"
      "CULIFT_KERNEL float Loaded(const float* A, const float* w, const float* b, int ni, int nj, int nk, int i, int j, "
      "int k) {\n" +
      conv +
      "  return s + b[i];\n}\n"
      "CULIFT_KERNEL float Early(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {\n"
      "  const int c = (i * nj + j) * nk + k;\n"
      "  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];\n"
      "  const float m = A[c];\n  float s = 0.0f;\n"
      "  for (int di = -1; di <= 1; ++di)\n    for (int dj = -1; dj <= 1; ++dj)\n"
      "      for (int dk = -1; dk <= 1; ++dk) s += A[c + (di * nj + dj) * nk + dk] - m;\n"
      "  return s;\n}\n"
      "CULIFT_KERNEL float Seen(const float* A, const float* w, int ni, int nj, int nk, int i, int j, int k) {\n"
      "  const int c = (i * nj + j) * nk + k;\n  float s = 0.5f;\n"
      "  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c] + s;\n"
      "  for (int di = -1; di <= 1; ++di)\n    for (int dj = -1; dj <= 1; ++dj)\n"
      "      for (int dk = -1; dk <= 1; ++dk) s += A[c + (di * nj + dj) * nk + dk];\n"
      "  return s;\n}\n"
      "CULIFT_KERNEL double Wide(const double* A, int ni, int nj, int nk, int i, int j, int k) {\n"
      "  const int c = (i * nj + j) * nk + k;\n"
      "  if (i == 0 || i == ni - 1 || j == 0 || j == nj - 1 || k == 0 || k == nk - 1) return A[c];\n"
      "  double s = 0.0;\n"
      "  for (int di = -1; di <= 1; ++di)\n    for (int dk = -1; dk <= 1; ++dk) s += A[c + di * nj * nk + dk];\n"
      "  return s;\n}\n");
  const std::string& src = r.module->cudaSource;
  auto entry = [&](const std::string& name) { return textFrom(src, " " + name + "(const", "#endif"); };
  auto helper = [&](const std::string& name) { return textFrom(src, name + "_at(const", "\n}\n"); };
  // Seen: a guard before the loop reads the carried sum (its first value): not streamed.
  for (const std::string f : {"Conv", "Quot", "Loaded", "Early", "Seen"}) {
    INFO(f);
    CHECK(function(r, f).loopPlan == LoopPlan::Stencil3DWindows);
    const std::string e = entry(f + "_win3d4");
    // A ring of 4 tiles of 10 rows x 136 columns, one barrier a plane, copied three planes ahead
    // (where the planes are streamed, two rows a thread: a ring of 4 tiles of 18 rows, two ahead,
    // the output's plane among them for the guard).
    const bool streamed = f == "Conv";
    CHECK(e.find(streamed ? "__shared__ __align__(16) float culift_sh0[9792];"
                          : "__shared__ __align__(16) float culift_sh0[5440];") != std::string::npos);
    CHECK(e.find(streamed ? "culift_copy_wait<1>();" : "culift_copy_wait<2>();") != std::string::npos);
    CHECK(e.find(streamed ? "(culift_n + 2) < culift_np" : "((culift_n) + 3) < culift_np") != std::string::npos);
    // The copies of a plane: the ring's shared address taken once, each group's pointer and bytes
    // in its tile kept, a plane adding its stage's bytes and its first element.
    CHECK(e.find("const culift_saddr culift_sa0 = culift_shared_at(culift_sh0);") != std::string::npos);
    CHECK(e.find(streamed ? "const culift_saddr culift_sb = culift_sa0 + (unsigned)(culift_n + 2) % 4u * 9792u;"
                          : "const culift_saddr culift_sb = culift_sa0 + (unsigned)((culift_n) + 3) % 4u * 5440u;") !=
          std::string::npos);
    CHECK(e.find("culift_copy_async16_at(culift_sb + culift_qb0[culift_g], culift_qp0[culift_g] + culift_pe);") !=
          std::string::npos);
    CHECK(
        e.find("culift_copy_group4(culift_st + culift_qb0[culift_g] / 4, A, (culift_qp0[culift_g] - A) + culift_pe,") !=
        std::string::npos);
    // The planes at which the thread's groups all lie in the array, aligned.
    CHECK(e.find("if (culift_c0v && culift_c00 > 0 && culift_ql <= culift_qh) {") != std::string::npos);
    // The weights stay a uniform read in registers: no tile of w.
    CHECK(e.find("culift_sh1") == std::string::npos);
    const bool selects = f == "Conv" || f == "Early" || f == "Seen";
    CHECK((e.find("if (culift_k + 1 < culift_nk) {") != std::string::npos) == !selects);
    if (!streamed) {
      CHECK((helper(f + "_win3d4").find("return culift_e0 ? culift_v0 : (") != std::string::npos) == selects);
      CHECK(e.find("_part<") == std::string::npos);
      continue;
    }
    // The planes streamed: each plane runs its iteration of the loop over di for the outputs of
    // three planes, their sums in the thread's registers (output plane z in slot (z - z0) % 3), the
    // last iteration storing them; the early return's element read from the output's plane's tile
    // by the caller. A thread's two rows share the window of a plane: 4 rows of 6 values.
    CHECK(src.find("Conv_win3d4_at(") == std::string::npos);
    CHECK(e.find("culift_j = blockIdx.y * 16 + threadIdx.x / 32 * 2;") != std::string::npos);
    CHECK(e.find("float culift_w0[1][4][6];") != std::string::npos);
    CHECK(e.find("float culift_a0[3][2][4];") != std::string::npos);
    CHECK(e.find("Conv_win3d4_part<(-1)>(culift_w0, culift_u0, culift_a0[(culift_t + 0) % 3][0][0], 0, 0, ") !=
          std::string::npos);
    CHECK(e.find("Conv_win3d4_part<0>(culift_w0, culift_u0, culift_a0[(culift_t + 2) % 3][1][1], 1, 1, ") !=
          std::string::npos);
    CHECK(e.find("if (culift_j + 1 < culift_nj) {") != std::string::npos);
    // The guard's element (the output's own) for each row's four outputs: one 16-byte load.
    CHECK(e.find("const float4 culift_g0 = *reinterpret_cast<const float4*>(culift_sh0 + (unsigned)(culift_i - "
                 "culift_z0 + 1) % 4u * 2448 + (culift_ty * 2 + 1) * 136 + 4 * culift_tx + 4);") != std::string::npos);
    CHECK(e.find("const float4 culift_g0r1 = *reinterpret_cast<const float4*>(culift_sh0 + (unsigned)(culift_i - "
                 "culift_z0 + 1) % 4u * 2448 + (culift_ty * 2 + 2) * 136 + 4 * culift_tx + 4);") != std::string::npos);
    CHECK(e.find("culift_o3 = Conv_win3d4_last(culift_w0, culift_u0, culift_g0.w, culift_a0[(culift_t + 1) % 3][0][3], "
                 "0, 3, ") != std::string::npos);
    CHECK(
        e.find("culift_o3 = Conv_win3d4_last(culift_w0, culift_u0, culift_g0r1.w, culift_a0[(culift_t + 1) % 3][1][3], "
               "1, 3, A, w, ni, nj, nk, culift_i, culift_j1, culift_k3);") != std::string::npos);
    const std::string part = textFrom(src, "Conv_win3d4_part(const", "\n}\n");
    CHECK(part.find("if (culift_di == (-1)) culift_a0 = culift_zero(0.0f);") != std::string::npos);
    CHECK(part.find("const int di = culift_di;") != std::string::npos);
    const std::string last = textFrom(src, "Conv_win3d4_last(const", "\n}\n");
    CHECK(last.find("const int di = 1;") != std::string::npos);
    CHECK(last.find("const float culift_v0 = culift_g0;") != std::string::npos);
    CHECK(last.find("return culift_e0 ? culift_v0 : (culift_a0);") != std::string::npos);
  }
  // One output a thread, and 8-byte windows, load from global memory.
  CHECK(entry("Conv_win3d").find("__shared__") == std::string::npos);
  CHECK(entry("Wide_win3d4").find("__shared__") == std::string::npos);
  CHECK(helper("Wide_win3d4").find("culift_e0") == std::string::npos);
}

TEST_CASE("loop plans: why a kernel is no stencil", "[loop-plan][stencil]") {
  // In place: each output must read the values before any is written.
  CHECK(stencilPlan("CULIFT_KERNEL void f(float* x, int n, int i, int j) {\n"
                    "  x[i * n + j] = x[i * n + j - 1] + x[i * n + j + 1];\n}\n") ==
        std::pair{LoopPlan::PerThread,
                  std::string("x is written and read (in place: each output must read the values before any is "
                              "written)")});
  CHECK(stencilPlan("CULIFT_KERNEL void f(const float* x, float* y, int n, int i, int j) {\n"
                    "  y[i * n + j + 1] = x[i * n + j - 1] + x[i * n + j + 1];\n}\n")
            .second == "y is written at another index than the output's own");
  CHECK(stencilPlan("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                    "  return x[j * n + i] + x[(j + 1) * n + i];\n}\n")
            .second == "consecutive j do not read neighbouring elements of x");
  // Any halo: the entries read as written.
  CHECK(stencilPlan("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                    "  return x[i * n + j] + x[i * n + j + 9];\n}\n")
            .first == LoopPlan::Stencil);
  CHECK(stencilPlan("CULIFT_KERNEL float f(const float* x, const int* idx, int n, int i, int j) {\n"
                    "  return x[i * n + j - 1] + x[i * n + j + 1] + x[idx[i] * n + j];\n}\n")
            .second == "the reads of x are not all the output's index plus constant offsets");
  // A border whose test reads an element: the entries read only what each output reads.
  CHECK(stencilPlan("CULIFT_KERNEL float f(const float* x, const float* mask, int n, int i, int j) {\n"
                    "  if (mask[i * n + j] > 0.0f) return 0.0f;\n"
                    "  return x[i * n + j - 1] + x[i * n + j + 1];\n}\n")
            .first == LoopPlan::Stencil);
  // A border test.
  CHECK(stencilPlan("CULIFT_KERNEL float f(const float* x, int n, int i, int j) {\n"
                    "  if (j == 0 || j >= n - 1) return 0.0f;\n"
                    "  return x[i * n + j - 1] + x[i * n + j + 1];\n}\n")
            .first == LoopPlan::Stencil);
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

TEST_CASE("loop plans: a column reduction shared by a middle axis", "[loop-plan][columns]") {
  TranslateResult r = lift(
      "#include <cmath>\n"
      "CULIFT_KERNEL_INDEX(b, f, s) float RmsNorm(const float* x, int F, int S, float eps, int b, int f, int s) {\n"
      "  float sum = 0.0f;\n"
      "  for (int g = 0; g < F; ++g) { const float v = x[(b * F + g) * S + s]; sum += v * v; }\n"
      "  return x[(b * F + f) * S + s] / std::sqrt(sum / (float)F + eps);\n}\n"
      "CULIFT_KERNEL_INDEX(b, m, c) double Centered(const double* x, const double* w, int M, int C, int b, int m, "
      "int c) {\n"
      "  const int base = b * M * C + c;\n  double s = 0.0;\n"
      "  for (int k = 0; k < M; ++k) s += w[k] * x[base + k * C];\n"
      "  const double d = x[base + m * C] - s;\n  if (d < 0.0) return -d;\n  return d * d;\n}\n");
  for (const char* name : {"RmsNorm", "Centered"}) {
    INFO(name);
    const Function& f = function(r, name);
    CHECK(f.loopPlan == LoopPlan::HoistedColumnReduction);
    CHECK(entryNames(f) == std::vector<std::string>{std::string(name) + "_across128", std::string(name) + "_across64"});
    REQUIRE(f.planEntries.size() == 2);
    CHECK(f.planEntries[0].blockMapping() == BlockMapping::ColumnsAcross);
    CHECK(f.planEntries[1].tileCols == 64);
    CHECK(f.loopPlanReason.empty());
  }
  CHECK(std::string(name(LoopPlan::HoistedColumnReduction)) == "column reduction shared by a middle axis");
  // The loop once per column, then the statements after it for every middle index; a return there
  // stores and goes on to the next one.
  const std::string& cuda = r.module->cudaSource;
  // RmsNorm's are declarations and one return: the reads of eight f first, then their statements.
  CHECK(cuda.find("for (int culift_m0 = 0; culift_m0 < culift_ni; culift_m0 += 8) {  // the statements after the "
                  "loop, for every f") != std::string::npos);
  CHECK(cuda.find("const float culift_r7_0 = culift_in7 ? (unsigned long long)") != std::string::npos);
  // Stored evict-first: the entry never reads its outputs back.
  CHECK(cuda.find("culift_store_streaming<float>(&culift_out[((long long)b * culift_ni + f_7) * culift_nj + s], "
                  "culift_r7_0 / ") != std::string::npos);

  // The loop keeps x of its first iterations in shared memory (64 per column: 32 KiB for the 128
  // entry), and the reads after it take them from there where the stash holds them.
  CHECK(cuda.find("__shared__ float culift_stash0[8192];") != std::string::npos);
  CHECK(cuda.find("if (culift_t + culift_u < 64) culift_stash0[(culift_t + culift_u) * 128 + threadIdx.x] = "
                  "culift_v0[culift_u];") != std::string::npos);
  CHECK(cuda.find("const long long culift_stashed = culift_trip < 64 ? culift_trip : 64;") != std::string::npos);
  CHECK(cuda.find("(unsigned long long)((long long)f_7 - (long long)culift_lo) < (unsigned long long)culift_stashed ? "
                  "culift_stash0[((long long)f_7 - (long long)culift_lo) * 128 + threadIdx.x] : x[") !=
        std::string::npos);
  // The 64 entry: 64 iterations per column too, 16 KiB.
  CHECK(cuda.find("__shared__ float culift_stash0[4096];") != std::string::npos);
  CHECK(cuda.find("if (culift_t + culift_u < 64) culift_stash0[(culift_t + culift_u) * 64 + threadIdx.x]") !=
        std::string::npos);
  // Centered's return under `if`: one m after the other.
  CHECK(cuda.find("for (int culift_m = 0; culift_m < culift_ni; ++culift_m) {  // the statements after the loop, "
                  "for every m") != std::string::npos);
  CHECK(cuda.find("const int m = (int)culift_m;") != std::string::npos);
  CHECK(cuda.find("{ culift_out[((long long)b * culift_ni + m) * culift_nj + c] = culift_neg(d); continue; }") !=
        std::string::npos);

  // Where it does not apply, the reason names what it needs.
  auto decideFor = [](const std::string& body) {
    TranslateResult t = lift(
        "CULIFT_KERNEL_INDEX(b, m, c) float f(const float* x, float* y, int M, int C, int b, "
        "int m, int c) {\n" +
        body + "}\n");
    const Function& f = function(t, "f");
    const codegen::KernelAnalysis analysis = codegen::analyzeKernel(f);
    REQUIRE(analysis.loop);
    return codegen::plans::unit(LoopPlan::HoistedColumnReduction).decide(f, analysis);
  };
  const std::string loop = "  float s = 0.0f;\n  for (int k = 0; k < M; ++k) s += x[(b * M + k) * C + c];\n";
  CHECK(decideFor(loop + "  return s + x[(b * M + m) * C + c];\n").applies);
  CHECK(decideFor("  const float w = (float)m;\n" + loop + "  return s * w;\n").reason ==
        "the statements before the loop use m");
  CHECK(decideFor("  float s = 0.0f;\n  for (int k = 0; k < M; ++k) s += x[(b * M + k) * C + c] * (float)m;\n"
                  "  return s;\n")
            .reason == "the loop uses m");
  CHECK(decideFor(loop + "  s = s * 0.5f;\n  return s;\n").reason == "the statements after the loop assign s");
  CHECK(decideFor(loop + "  y[b] = s;\n  return s;\n").reason == "the statements after the loop write an array");
  CHECK(decideFor("  if (c == 0) return 0.0f;\n" + loop + "  return s;\n").reason ==
        "the statements before the loop may return");
  CHECK(decideFor("  float s = 0.0f;\n  for (int k = 0; k < M; ++k) s += x[(b * M + k) * C + 2 * c];\n"
                  "  return s;\n")
            .reason == "consecutive c read elements of x 2 apart (a column reduction reads neighbouring ones)");
}

TEST_CASE("loop plans: minima, maxima and argmax rows in exact order", "[loop-plan]") {
  // `f` keeps `m` (type T, before the loop `init`) by `update`, once per k.
  auto plan = [](const std::string& update, const std::string& type = "float", const std::string& extra = "") {
    TranslateResult r = lift("#include <algorithm>\n#include <cmath>\nCULIFT_KERNEL " + type + " f(const " + type +
                             "* x, int n, int i) {\n  " + type + " m = x[i * n];\n  int arg = 0;\n" + extra +
                             "  for (int k = 1; k < n; ++k) { " + update + " }\n  return m + arg;\n}\n");
    const Function& f = function(r, "f");
    return std::pair{f.loopPlan, f.loopPlanReason};
  };
  const auto yes = [&](const std::string& update, const std::string& remark, const std::string& type = "float") {
    INFO(update << " over " << type);
    auto [p, reason] = plan(update, type);
    CHECK(p == LoopPlan::ExtremumRowReduction);
    CHECK(reason == remark);
  };
  const std::string firstMax = "m: the largest term, the first of equal ones, NaN terms skipped";
  const std::string firstMin = "m: the smallest term, the first of equal ones, NaN terms skipped";
  yes("m = std::max(m, x[i * n + k]);", firstMax);
  yes("m = x[i * n + k] > m ? x[i * n + k] : m;", firstMax);
  yes("m = m < x[i * n + k] ? x[i * n + k] : m;", firstMax);
  yes("if (x[i * n + k] > m) m = x[i * n + k];", firstMax);
  yes("const float v = x[i * n + k]; if (m < v) { m = v; }", firstMax);
  yes("m = std::min(m, x[i * n + k]);", firstMin);
  yes("if (x[i * n + k] < m) m = x[i * n + k];", firstMin);
  yes("m = x[i * n + k] >= m ? x[i * n + k] : m;", "m: the largest term, the last of equal ones, NaN terms skipped");
  yes("if (m >= x[i * n + k]) m = x[i * n + k];", "m: the smallest term, the last of equal ones, NaN terms skipped");
  yes("m = std::fmax(m, x[i * n + k]);", "m: std::fmax of its terms (associative)");
  yes("m = std::fmin(x[i * n + k], m);", "m: std::fmin of its terms (associative)", "double");
  yes("const float v = x[i * n + k]; if (v > m) { m = v; arg = k; }", firstMax + ", with arg");
  // Integers have no NaN: std::max(term, m) keeps the last of equal ones, whose bits are the same.
  yes("m = std::max(x[i * n + k], m);", "m: the largest term, the last of equal ones", "int");
  yes("m = m > x[i * n + k] ? m : x[i * n + k];", "m: the largest term, the last of equal ones", "short");
  yes("m = std::min(m, x[i * n + k]);", "m: the smallest term, the first of equal ones", "unsigned char");

  // Floating forms that take a NaN term keep the loop's order, with the reason.
  const std::string nan =
      " takes a NaN term (a comparison with NaN is false), so only the loop's order gives its "
      "result: write m = std::max(m, term) or if (term > m) ..., which skip NaN terms";
  const auto no = [&](const std::string& update, const std::string& why, const std::string& extra = "") {
    INFO(update);
    auto [p, reason] = plan(update, "float", extra);
    CHECK(p == LoopPlan::RowReduction);
    CHECK(reason == why);
  };
  no("m = std::max(x[i * n + k], m);", "m = std::max(term, m)" + nan);
  no("m = std::min(x[i * n + k], m);", "m = std::min(term, m)" + nan);
  no("m = m > x[i * n + k] ? m : x[i * n + k];", "m = cond ? m : term" + nan);
  no("m = x[i * n + k] > m ? x[i * n + k] + 1.0f : m;", "the term compared with m is not the one assigned to it");
  no("if (x[i * n + k] > m) m = x[i * n + k]; else arg = k;", "the if that compares m with a term has an else");
  no("if (x[i * n + k] > m) { m = x[i * n + k]; arg = arg + 1; }",
     "a term of the loop reads a kept value (it would see another lane's)");
  no("m = std::max(m, x[i * n + k]); m = std::min(m, x[i * n + k]);", "m is updated twice in the loop");
  no("m = std::max(m, x[i * n + k]); arg += 1;",
     "the loop does more than keep minima and maxima (a statement other than a declaration or an update of one)");
  no("if (x[i * n + k] > m) { m = x[i * n + k]; arg = k; } if (x[i * n + k] < m) arg = k;",
     "the term compared with m is not the one assigned to it");
  // Two kept values in one loop, each with its own ties.
  TranslateResult r = lift(
      "#include <algorithm>\nCULIFT_KERNEL float Range(const float* x, int n, int i) {\n"
      "  float lo = x[i * n], hi = lo;\n  for (int k = 0; k < n; ++k) {\n"
      "    lo = std::min(lo, x[i * n + k]);\n    if (hi <= x[i * n + k]) hi = x[i * n + k];\n  }\n"
      "  return hi - lo;\n}\n"
      "CULIFT_KERNEL float Before(float* y, const float* x, int n, int i) {\n"
      "  y[i] = 0.0f;\n  float m = x[i * n];\n"
      "  for (int k = 0; k < n; ++k) m = std::max(m, x[i * n + k]);\n  return m;\n}\n"
      "CULIFT_KERNEL float Sum(const float* x, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += x[i * n + k];\n  return s;\n}\n");
  const Function& range = function(r, "Range");
  CHECK(range.loopPlan == LoopPlan::ExtremumRowReduction);
  CHECK(range.loopPlanReason ==
        "lo: the smallest term, the first of equal ones, NaN terms skipped; hi: the largest "
        "term, the last of equal ones, NaN terms skipped");
  CHECK(entryNames(range) == std::vector<std::string>{"Range_extremum"});
  CHECK(range.planEntries[0].tileRows == 8);
  CHECK(range.planEntries[0].threads == 256);
  CHECK(range.planEntries[0].mapping == BlockMapping::RowBlocks);
  CHECK(range.reassociatedSums.empty());  // exact: the CPU backend runs the loop as written
  // Every lane runs the statements before the loop: they may not write arrays.
  CHECK(function(r, "Before").loopPlan == LoopPlan::RowReduction);
  CHECK(function(r, "Before").loopPlanReason == "the statements before the loop write an array");
  // A sum is none of this plan's business: its remark stays the dependent chain.
  CHECK(function(r, "Sum").loopPlan == LoopPlan::RowReduction);
  CHECK(function(r, "Sum").loopPlanReason.rfind("exact order: each output adds its terms to s", 0) == 0);
  CHECK(moduleFileId(LoopPlan::ExtremumRowReduction) == 11);
  CHECK(std::string(name(LoopPlan::ExtremumRowReduction)) == "min/max row reduction (exact order)");
}

TEST_CASE("loop plans: scans write their rows as they go", "[loop-plan][scan]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL void CumSum(const float* x, float* out, int n, int i) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) { s += x[i * n + k]; out[i * n + k] = s; }\n}\n"
      "CULIFT_KERNEL int Both(const int* x, const int* w, int* a, int* b, int n, int i) {\n"
      "  const int row = i * n;\n  int p = 1, m = x[row];\n"
      "  for (int k = 0; k < n; ++k) { p = p * x[row + k]; m = m > w[row + k] ? m : w[row + k];\n"
      "    a[row + k] = p; b[row + k] = m; a[row + k] = p + 1; }\n  return p;\n}\n"
      "CULIFT_KERNEL void Scan2D(const float* x, float* out, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) { s += x[i * n + k]; out[(i * n + j) * n + k] = s; }\n}\n");
  const Function& cumsum = function(r, "CumSum");
  CHECK(cumsum.loopPlan == LoopPlan::Scan);
  CHECK(cumsum.loopPlanReason.empty());
  CHECK(entryNames(cumsum) == std::vector<std::string>{"CumSum_scan64", "CumSum_scan32"});
  CHECK(cumsum.planEntries[0].tileRows == 64);
  CHECK(cumsum.planEntries[0].threads == 64);
  CHECK(cumsum.planEntries[1].tileRows == 32);
  CHECK(cumsum.planEntries[0].mapping == BlockMapping::RowBlocks);
  CHECK(cumsum.reassociatedSums.empty());  // exact: every row runs its loop in order
  // Two written arrays (one written twice at one index), two read ones, a value returned.
  CHECK(function(r, "Both").loopPlan == LoopPlan::Scan);
  const codegen::KernelAnalysis both = codegen::analyzeKernel(function(r, "Both"));
  REQUIRE(both.loop);
  CHECK(both.loop->writes.size() == 2);
  CHECK(both.loop->writes[0].reads.size() == 2);
  CHECK(both.loop->operands.size() == 2);
  CHECK(both.loop->writesReason == "a is written in the loop");
  // 2-D loops that write stay per thread, with the reason they always had.
  CHECK(function(r, "Scan2D").loopPlan == LoopPlan::PerThread);
  CHECK(function(r, "Scan2D").loopPlanReason == "out is written in the loop");
  CHECK(moduleFileId(LoopPlan::Scan) == 14);
  CHECK(std::string(name(LoopPlan::Scan)) == "scan");
  // The entries are emitted.
  CHECK(r.module->cudaSource.find("__global__ void __launch_bounds__(64) CumSum_scan64(") != std::string::npos);
  CHECK(r.module->cudaSource.find("__global__ void __launch_bounds__(32) Both_scan32(") != std::string::npos);
}

TEST_CASE("loop plans: why a loop that writes is no scan", "[loop-plan][scan]") {
  const auto why = [](const std::string& body, const std::string& element = "float") {
    INFO(body);
    return reasonFor("CULIFT_KERNEL void f(const " + element + "* x, float* out, int n, int i) {\n  float s = 0.0f;\n" +
                     body + "\n}\n");
  };
  CHECK(why("for (int k = 0; k < n; ++k) { s += x[i * n + k]; if (s > 0.0f) out[i * n + k] = s; }") ==
        "out is written on some steps of the loop only (a scan writes every step)");
  const std::string other =
      "out is written in the loop at an index other than one element per step of k along a row "
      "of i (out[i * n + k])";
  CHECK(why("for (int k = 0; k < n; ++k) { s += x[i * n + k]; out[i] = s; }") == other);
  CHECK(why("for (int k = 0; k < n; ++k) { s += x[i * n + k]; out[k * n + i] = s; }") == other);
  CHECK(why("for (int k = 0; k < n; ++k) { s += x[i * n + k]; out[i * n + 2 * k] = s; }") == other);
  CHECK(why("for (int k = 0; k < n; ++k) { s += x[i * n + k]; out[i * n + k] = s; out[i * n + k + 1] = s; }") ==
        "out is written at two indices in the loop");
  CHECK(why("for (int k = 1; k < n; ++k) out[i * n + k] = out[i * n + k - 1] + x[i * n + k];") ==
        "out is written and read");
  CHECK(why("for (int k = 0; k < n; ++k) out[i * n + k] += x[i * n + k];") == "out is written and read");
  CHECK(why("for (int k = 0; k < i; ++k) { s += x[i * n + k]; out[i * n + k] = s; }") == "the bound of k depends on i");
  CHECK(why("for (int k = 0; k < n; ++k) { s += x[k * n + i]; out[i * n + k] = s; }") ==
        "x is not read at consecutive k (the index is not k plus terms without it)");
  CHECK(why("for (int k = 0; k < n; ++k) { s += (float)x[i * n + k]; out[i * n + k] = s; }", "double") ==
        "the arrays x and out have elements of different sizes (a scan stages them in tiles of one shape)");
  CHECK(why("for (int k = 0; k < n; ++k) { s += 1.0f; out[i * n + k] = s; }") ==
        "no array read in the loop is indexed by (i, k)");
  // Each staged array keeps two tiles at least in a warp's share of 48 KiB: five read arrays fit
  // one warp per block only, six none.
  const auto reading = [](unsigned arrays) {
    std::string params, sum;
    for (unsigned a = 0; a < arrays; ++a) {
      params += "const float* x" + std::to_string(a) + ", ";
      sum += " + x" + std::to_string(a) + "[i * n + k]";
    }
    return lift("CULIFT_KERNEL void f(" + params + "float* out, int n, int i) {\n  float s = 0.0f;\n" +
                "  for (int k = 0; k < n; ++k) { s = s" + sum + "; out[i * n + k] = s; }\n}\n");
  };
  TranslateResult five = reading(5), six = reading(6);
  CHECK(function(five, "f").loopPlan == LoopPlan::Scan);
  CHECK(entryNames(function(five, "f")) == std::vector<std::string>{"f_scan32"});
  CHECK(function(six, "f").loopPlan == LoopPlan::PerThread);
  CHECK(function(six, "f").loopPlanReason == "7 arrays would be staged (their tiles do not fit in shared memory)");
}

namespace {

// A 2-D convolution as a culift user writes it (KernelBench's conv2d): one output per (n, k) x
// (oh, ow), the terms (c, r, s) under the padding test; `body` replaces the innermost statement.
std::string convolution(const std::string& name, const std::string& body) {
  return "CULIFT_KERNEL_INDEX(nk, oh, ow)\n"
         "float " +
         name +
         "(const float* x, const float* w, int C, int H, int W, int K, int R, int S, int stride, int pad,\n"
         "    int nk, int oh, int ow) {\n"
         "  const int n = nk / K, k = nk % K;\n  float acc = 0.0f;\n"
         "  for (int c = 0; c < C; ++c)\n    for (int r = 0; r < R; ++r)\n      for (int s = 0; s < S; ++s) {\n"
         "        const int y = oh * stride - pad + r, xx = ow * stride - pad + s;\n" +
         body + "\n      }\n  return acc;\n}\n";
}

const char* kPaddedTerm =
    "        if (y >= 0 && y < H && xx >= 0 && xx < W)\n"
    "          acc += x[((n * C + c) * H + y) * W + xx] * w[((k * C + c) * R + r) * S + s];";

}  // namespace

TEST_CASE("loop plans: convolutions as an implicit GEMM", "[loop-plan][convolution]") {
  TranslateResult r = lift(
      convolution("Conv2D", kPaddedTerm) +
      convolution("Valid", "        acc += x[((n * C + c) * H + y) * W + xx] * w[((k * C + c) * R + r) * S + s];") +
      // One image, the channel the first index itself; the filter read first.
      "CULIFT_KERNEL_INDEX(k, oh, ow)\n"
      "double Single(const double* x, const double* w, int C, int H, int W, int R, int S, int k, int oh, int ow) {\n"
      "  double acc = 0.0;\n  for (int c = 0; c < C; ++c)\n    for (int r = 0; r < R; ++r)\n"
      "      for (int s = 0; s < S; ++s) acc += w[((k * C + c) * R + r) * S + s] * x[(c * H + oh + r) * W + ow + s];\n"
      "  return acc * 0.5;\n}\n");
  for (const char* fn : {"Conv2D", "Valid", "Single"}) {
    INFO(fn);
    const Function& f = function(r, fn);
    CHECK(f.loopPlan == LoopPlan::Convolution);
    CHECK(entryNames(f) == std::vector<std::string>{std::string(fn) + "_conv64x128", std::string(fn) + "_conv32x64"});
    REQUIRE(f.planEntries.size() == 2);
    CHECK(f.planEntries[0].blockMapping() == BlockMapping::ConvTiles);
    CHECK(f.planEntries[0].tileRows == 64);
    CHECK(f.planEntries[0].tileCols == 128);
    CHECK(f.planEntries[0].threads == 256);
    CHECK(f.planEntries[1].tileRows == 32);
    CHECK(f.planEntries[1].threads == 64);
    CHECK(f.loopPlanReason.empty());
    CHECK(r.module->cudaSource.find(") " + std::string(fn) + "_conv64x128(") != std::string::npos);
  }
  CHECK(std::string(name(LoopPlan::Convolution)) == "convolution");
  CHECK(moduleFileId(LoopPlan::Convolution) == 16);
  const std::string& cuda = r.module->cudaSource;
  // The padding test is a flag per position and term (its comparisons joined by & : no branch per
  // comparison); the term runs under it, never added as 0.
  CHECK(cuda.find("if ((bool)((((oh * stride) - pad) + r) >= 0) & (bool)((((oh * stride) - pad) + r) < H) & "
                  "(bool)((((ow * stride) - pad) + s) >= 0) & (bool)((((ow * stride) - pad) + s) < W))") !=
        std::string::npos);
  CHECK(cuda.find("if (culift_fv[culift_n]) {") != std::string::npos);
  // The image of a position through nk / K alone, the filter's channel through nk % K: both
  // indices a base per position (channel), once per tile, plus an offset per term, once per chunk.
  CHECK(cuda.find("culift_b0[culift_e] = culift_img < 0 ? 0 : (long long)(((((((((long long)(culift_img * "
                  "culift_kpi)) / K) * C)") != std::string::npos);
  CHECK(cuda.find("(long long)(((((((((long long)(culift_nk)) % K) * C) + ((long long)(culift_lo0))) * R)") !=
        std::string::npos);
  // Two chunks in flight: the next one's inputs into registers (table culift_nxt) during the
  // current one's products, then into the stages.
  // Each thread gathers at one position (culift_gpp) of the tile; the stage takes a zero where the
  // term does not run.
  CHECK(cuda.find("const float* const culift_gx0 = x + culift_b0[culift_gpp];") != std::string::npos);
  CHECK(cuda.find("culift_r0[culift_u] = culift_gx0[culift_d0[culift_nxt][culift_qq]];") != std::string::npos);
  CHECK(cuda.find("culift_s0[culift_sb ^ 1][culift_qq][culift_gpp] = culift_run ? culift_r0[culift_u] : (float)0;") !=
        std::string::npos);
  // A warp holds 4 x 8 threads: its loads of a term's positions read one wavefront (a thread's 8
  // positions are two runs of 4 half a tile apart).
  CHECK(cuda.find(
            "const int culift_tx = (int)(threadIdx.x / 32 % 2 * 8 + threadIdx.x % 8), culift_ty = (int)(threadIdx.x "
            "/ 32 / 2 * 4 + threadIdx.x % 32 / 8);") != std::string::npos);
  CHECK(cuda.find("culift_s0[culift_sb][culift_qq][((culift_u) / 4 * 64 + culift_tx * 4 + (culift_u) % 4)]") !=
        std::string::npos);
  // A term every stored position runs reads no flag; one some position skips stays under its flag.
  // A chunk's terms are marked during the products of the chunk two before it (culift_aft), so that
  // its channel operands load with no barrier after its position gather.
  CHECK(cuda.find("culift_all[culift_aft][culift_qq] = 0;") != std::string::npos);
  CHECK(cuda.find("culift_rf = culift_mf;") != std::string::npos);
  CHECK(cuda.find("__shared__ int culift_any[4][16];") != std::string::npos);
  // Two stages of float operands: the next chunk staged into one while the products read the other.
  CHECK(cuda.find("culift_sb ^= 1;") != std::string::npos);
  // Double ones take one stage (two would pass the 48 KiB of static shared memory).
  CHECK(cuda.find("__shared__ __align__(16) double culift_s1[1][16][128];") != std::string::npos);
  CHECK(cuda.find("if (culift_all[culift_cur][culift_qq]) {") != std::string::npos);
  CHECK(cuda.find("__launch_bounds__(256, 2) Conv2D_conv64x128(") != std::string::npos);
  CHECK(cuda.find("__launch_bounds__(256) Single_conv64x128(") != std::string::npos);  // double sums
  // The filter's stage: four elements more per term than the tile's channels.
  CHECK(cuda.find("__shared__ __align__(16) float culift_s1[2][16][100];") != std::string::npos);  // 96 + 4
  // The 64-channel entry also runs tiles of 96 channels, 6 x 8 outputs a thread, where the channels
  // per image fill them no worse.
  CHECK(cuda.find("if ((culift_kpi + 95) / 96 * 96 <= (culift_kpi + 63) / 64 * 64) {") != std::string::npos);
  CHECK(cuda.find("float culift_acc_") != std::string::npos);
  CHECK(cuda.find("[6][8] = {};") != std::string::npos);
  CHECK(cuda.find("[4][8] = {};") != std::string::npos);
  CHECK(cuda.find("w[culift_b1[culift_kk] + culift_d1[culift_nxt][culift_qq]]") != std::string::npos);
  CHECK(cuda.find("nk / K) * C) + c)") == std::string::npos);  // no division per gathered element
  CHECK(cuda.find("const long long culift_kpi = (long long)K;  // channels per image") != std::string::npos);
  CHECK(cuda.find("const long long culift_kpi = culift_n0;  // channels per image") != std::string::npos);
}

TEST_CASE("loop plans: a convolution's skipped terms run on zeros only where that keeps the bits",
          "[loop-plan][convolution]") {
  TranslateResult r = lift(
      convolution("Padded", kPaddedTerm) +
      convolution("Either",
                  "        if (y >= 0 && y < H && xx >= 0 && xx < W)\n"
                  "          acc = acc + w[((k * C + c) * R + r) * S + s] * x[((n * C + c) * H + y) * W + xx];") +
      convolution("Plus",
                  "        if (y >= 0 && y < H && xx >= 0 && xx < W)\n"
                  "          acc += x[((n * C + c) * H + y) * W + xx] * w[((k * C + c) * R + r) * S + s] + 1.0f;") +
      convolution("Twice",
                  "        if (y >= 0 && y < H && xx >= 0 && xx < W)\n"
                  "          acc += 2.0f * x[((n * C + c) * H + y) * W + xx] * w[((k * C + c) * R + r) * S + s];"));
  // A sum that starts at -0 may stay -0, which adding +0 would change.
  std::string negative = convolution("Negative", kPaddedTerm);
  negative.replace(negative.find("float acc = 0.0f;"), 17, "float acc = -0.0f;");
  TranslateResult n = lift(negative);
  for (const Function* f : {&function(r, "Padded"), &function(r, "Either"), &function(r, "Plus"), &function(r, "Twice"),
                            &function(n, "Negative")}) {
    INFO(f->name << ": " << f->loopPlanReason);
    CHECK(f->loopPlan == LoopPlan::Convolution);
  }
  // Where they do, a chunk whose staged filter values are all finite runs its terms with no flag:
  // the block learns it at the barrier after the staging.
  auto zeroes = [](const std::string& cuda, const std::string& fn) {
    const std::string entry = textFrom(cuda, ") " + fn + "_conv64x128(", fn + "_conv32x64(");
    const bool finite = entry.find("culift_zbad |= !isfinite(culift_z") != std::string::npos;
    const bool barrier = entry.find("culift_zok = __syncthreads_or(culift_zbad) == 0;") != std::string::npos;
    const bool path = entry.find("if (culift_nq == 16 && culift_zok) {") != std::string::npos;
    CHECK(finite == barrier);
    CHECK(finite == path);
    return finite && barrier && path;
  };
  CHECK(zeroes(r.module->cudaSource, "Padded"));
  CHECK(zeroes(r.module->cudaSource, "Either"));
  CHECK_FALSE(zeroes(r.module->cudaSource, "Plus"));
  CHECK_FALSE(zeroes(r.module->cudaSource, "Twice"));
  CHECK_FALSE(zeroes(n.module->cudaSource, "Negative"));
}

TEST_CASE("loop plans: a convolution's flags join the padding test's comparisons only where each is safe alone",
          "[loop-plan][convolution]") {
  // A division in a term of the chain (it may divide by zero where an earlier term is false): the
  // chain as written, evaluated term by term.
  auto conv = [](const std::string& fn, const std::string& test) {
    return "CULIFT_KERNEL_INDEX(k, oh, ow)\nfloat " + fn +
           "(const float* x, const float* w, int C, int H, int W, int R, int S, int d, int k, int oh, int ow) {\n"
           "  float acc = 0.0f;\n  for (int c = 0; c < C; ++c)\n    for (int r = 0; r < R; ++r)\n"
           "      for (int s = 0; s < S; ++s) {\n        const int y = oh - 1 + r, xx = ow - 1 + s;\n"
           "        if (" +
           test +
           ") acc += w[((k * C + c) * R + r) * S + s] * x[(c * H + y) * W + xx];\n      }\n"
           "  return acc;\n}\n";
  };
  TranslateResult r = lift(conv("Joined", "y >= 0 && y < H && xx >= 0 && xx < W") +
                           conv("Divides", "d != 0 && y / d < H && xx >= 0 && xx < W"));
  for (const char* fn : {"Joined", "Divides"}) {
    INFO(fn << ": " << function(r, fn).loopPlanReason);
    CHECK(function(r, fn).loopPlan == LoopPlan::Convolution);
  }
  const std::string& cuda = r.module->cudaSource;
  CHECK(cuda.find("if ((bool)(((oh - 1) + r) >= 0) & (bool)(((oh - 1) + r) < H) & (bool)(((ow - 1) + s) >= 0) & "
                  "(bool)(((ow - 1) + s) < W))") != std::string::npos);
  CHECK(cuda.find("if ((((d != 0) && ((((oh - 1) + r) / d) < H)) && (((ow - 1) + s) >= 0)) && (((ow - 1) + s) < W))") !=
        std::string::npos);
}

TEST_CASE("loop plans: a convolution gathers at a base plus an offset only where the index separates",
          "[loop-plan][convolution]") {
  auto single = [](const std::string& fn, const std::string& xIndex) {
    return "CULIFT_KERNEL_INDEX(k, oh, ow)\nfloat " + fn +
           "(const float* x, const float* w, int C, int H, int W, int R, int S, int k, int oh, int ow) {\n"
           "  float acc = 0.0f;\n  for (int c = 0; c < C; ++c)\n    for (int r = 0; r < R; ++r)\n"
           "      for (int s = 0; s < S; ++s) acc += w[((k * C + c) * R + r) * S + s] * x[" +
           xIndex + "];\n  return acc;\n}\n";
  };
  TranslateResult r = lift(single("Separates", "(c * H + oh + r) * W + ow + s") +
                           // r times a value of the position; unsigned (wrapping) sums; a division by a counter.
                           single("Warped", "(c * H + oh + r * (1 + oh % 2)) * W + ow + s") +
                           single("Unsigned", "(unsigned)((c * H + oh + r) * W) + (unsigned)(ow + s)") +
                           single("Divided", "(c * H + oh + H / (r + 1)) * W + ow + s"));
  const std::string& cuda = r.module->cudaSource;
  for (const char* fn : {"Separates", "Warped", "Unsigned", "Divided"}) {
    INFO(fn);
    CHECK(function(r, fn).loopPlan == LoopPlan::Convolution);
  }
  // Each kernel's 64 x 128 entry: the filter always at a base plus an offset; the input so only
  // where its index separates, else at its index as written.
  auto entry = [&](const std::string& fn) {
    return textFrom(cuda, ") " + fn + "_conv64x128(", ") " + fn + "_conv32x64(");
  };
  CHECK(entry("Separates").find("= culift_gx1[culift_d1[culift_nxt][culift_qq]];") != std::string::npos);
  CHECK(entry("Warped").find("= x[(((((c * H) + oh) + (r * (1 + (oh % 2)))) * W) + ow) + s];") != std::string::npos);
  CHECK(entry("Unsigned").find("culift_b1[") == std::string::npos);
  CHECK(entry("Divided").find("culift_b1[") == std::string::npos);
  for (const char* fn : {"Separates", "Warped", "Unsigned", "Divided"})
    CHECK(entry(fn).find("= w[culift_b0[culift_kk] + culift_d0[culift_nxt][culift_qq]];") != std::string::npos);
}

TEST_CASE("loop plans: why a nest of loops is no convolution", "[loop-plan][convolution]") {
  // Each reason is the plan's own sentence, the remark `culift ast` shows.
  CHECK(reasonFor(convolution("f", "        acc += x[((n * C + c) * H + y) * W + xx + k] * w[c];")) ==
        "the index of x depends on both the channel (nk) and the position (oh, ow)");
  CHECK(reasonFor(convolution("f", "        if (y >= k) acc += x[((n * C + c) * H + y) * W + xx] * w[k * C + c];")) ==
        "the condition around the terms depends on the channel or on what changes");
  CHECK(reasonFor(convolution("f", "        acc += x[((n * C + c) * H + y) * W + xx] * w[(int)acc];")) ==
        "the index of w depends on what changes");
  CHECK(reasonFor(convolution("f",
                              "        if (y >= 0) acc += x[((n * C + c) * H + y) * W + xx] * w[c];\n"
                              "        else acc -= 1.0f;")) ==
        "the loop body branches or leaves (one condition around its terms is taken)");
  CHECK(reasonFor(convolution("f", "        acc += w[(k * C + c) * R + r] * w[(k * C + c) * S + s];")) ==
        "no array read in the loops is indexed by the position (oh, ow) and another by the channel (nk)");
  // The images found through nk / K: the filter read at nk itself would differ per image.
  CHECK(reasonFor(convolution("f", "        acc += x[((n * C + c) * H + y) * W + xx] * w[nk * C + c];")) ==
        "the index of w depends on nk itself, not through nk % K");
  CHECK(reasonFor("CULIFT_KERNEL_INDEX(nk, oh, ow)\n"
                  "float f(float* x, const float* w, int C, int R, int nk, int oh, int ow) {\n"
                  "  float acc = 0.0f;\n  for (int c = 0; c < C; ++c)\n"
                  "    for (int r = 0; r < R; ++r) acc += x[c * R + r + ow] * w[nk * C + c];\n"
                  "  x[ow] = acc;\n  return acc;\n}\n") == "the kernel writes the array x");
  CHECK(reasonFor(convolution("f", "        if (y >= 0) acc += (xx < W ? x[y * W + xx] : 0.0f) * w[c];")) ==
        "x is read under a condition inside the term");
  CHECK(reasonFor("CULIFT_KERNEL_INDEX(nk, oh, ow)\n"
                  "float f(const float* x, const float* w, int C, int R, int nk, int oh, int ow) {\n"
                  "  float acc = 0.0f;\n  for (int c = 0; c < C; ++c)\n"
                  "    for (int r = 0; r < oh; ++r) acc += x[c * R + r + ow] * w[nk * C + c];\n  return acc;\n}\n") ==
        "the bounds of the loop over r depend on more than the parameters");
  CHECK(
      reasonFor("CULIFT_KERNEL_INDEX(nk, oh, ow)\n"
                "float f(const float* x, const float* w, int C, int R, int nk, int oh, int ow) {\n"
                "  float acc = 0.0f;\n  for (int c = 0; c < C; ++c) {\n    acc *= 0.5f;\n"
                "    for (int r = 0; r < R; ++r) acc += x[c * R + r + ow] * w[nk * C + c];\n  }\n  return acc;\n}\n") ==
      "the body has 2 loops (one counted loop is lifted)");
}

// The 256-row TF32 entry's copying thread prefetches into L2 only the lines every output reads
// after the loop: a read under ?: or after a branch may be one the kernel never makes (a null C),
// and a read that does not step along j gains nothing from lines of a row.
TEST_CASE("loop plans: the TF32 entry prefetches the epilogue's unconditional row reads only",
          "[loop-plan][tensor-cores]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float Both(const float* A, const float* B, const float* C,\n"
      "                                            const float* D, int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n"
      "  return s + C[i * nj + j] * D[i * nj + j];\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float Guarded(const float* A, const float* B, const float* C, float beta,\n"
      "                                               int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n"
      "  return beta != 0.0f ? s + beta * C[i * nj + j] : s;\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float Transposed(const float* A, const float* B, const float* C,\n"
      "                                                  int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n"
      "  return s + C[j * nk + i];\n}\n");
  const std::string& cuda = r.module->cudaSource;
  auto body = [&](const std::string& entry) { return textFrom(cuda, " " + entry + "(", "\n}\n"); };
  for (const char* f : {"Both", "Guarded", "Transposed"}) {
    INFO(f);
    REQUIRE(function(r, f).planEntries.size() >= 1);
    CHECK(function(r, f).planEntries[0].threads == 384);  // a copying warpgroup: both operands by maps
  }
  const std::string both = body("Both_wg256");
  CHECK(both.find("culift_prefetch_l2(&C[(i * nj) + j]);") != std::string::npos);
  CHECK(both.find("culift_prefetch_l2(&D[(i * nj) + j]);") != std::string::npos);
  CHECK(body("Guarded_wg256").find("culift_prefetch_l2") == std::string::npos);
  CHECK(body("Transposed_wg256").find("culift_prefetch_l2") == std::string::npos);
  CHECK(body("Both_wg128").find("culift_prefetch_l2") == std::string::npos);  // no copying warpgroup
}

TEST_CASE("loop plans: contractions on tensor cores, only where the kernel opted in", "[loop-plan][tensor-cores]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float Gemm(const float* A, const float* B, const float* C, float alpha,\n"
      "                                            int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n"
      "  return alpha * s + C[i * nj + j];\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(bf16) float Gram(const float* x, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s = s + x[j * n + k] * x[i * n + k];\n  return s;\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(fp16) float TwoSums(const float* A, const float* B, int n, int i, int j) {\n"
      "  float s = 0.0f, t = 0.0f;\n  for (int k = 0; k < n; ++k) { s += A[i * n + k] * B[k * n + j]; t += B[k * n + j]; }\n"
      "  return s + t;\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float Doubles(const double* A, const double* B, int n, int i, int j) {\n"
      "  double s = 0.0;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n  return (float)s;\n}\n"
      "CULIFT_KERNEL float Exact(const float* A, const float* B, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n  return s;\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float GemmNT(const float* A, const float* B, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[j * n + k];\n  return s;\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float Narrow(const float* A, const float* B, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * 64 + j];\n  return s;\n}\n"
      "CULIFT_KERNEL_TENSOR_CORES(tf32) float OffDiagonal(const float* A, const float* B, int n, int i, int j) {\n"
      "  if (i == j) return 0.0f;\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n  return s;\n}\n");
  const Function& gemm = function(r, "Gemm");
  CHECK(gemm.tensorCores == TensorCores::TF32);
  CHECK(gemm.loopPlan == LoopPlan::TensorCoreContraction);
  // TF32 on warpgroups first (wgmma on sm_90a), 256 rows a block then 128, then the mma.sync entries.
  CHECK(entryNames(gemm) == std::vector<std::string>{"Gemm_wg256", "Gemm_wg128", "Gemm_tc128", "Gemm_tc64"});
  REQUIRE(gemm.planEntries.size() == 4);
  CHECK(onWarpgroups(gemm.planEntries[0]));
  CHECK(onWarpgroups(gemm.planEntries[1]));
  CHECK_FALSE(onWarpgroups(gemm.planEntries[2]));
  for (std::size_t e : {0, 1, 2}) {
    CHECK(gemm.planEntries[e].blockMapping() == BlockMapping::Tiles2D);
    // The 256-row entry with tensor maps: a third warpgroup copies (tiles.hpp).
    CHECK(gemm.planEntries[e].threads == (e == 0 ? 384 : 256));
    CHECK(gemm.planEntries[e].tileRows == (e == 0 ? 256 : 128));
    CHECK(gemm.planEntries[e].tileCols == 128);
  }
  // Four stages of k 32: A's 256 or 128 rows, B's 128 columns, unpadded (swizzled); + the 1024-byte
  // alignment's room.
  CHECK(gemm.planEntries[0].sharedBytes == 4 * 32 * (256 + 128) * 4 + 1024);
  CHECK(gemm.planEntries[1].sharedBytes == 4 * 32 * (128 + 128) * 4 + 1024);
  // Both operands row-major matrices: bulk tensor copies, A as rows of nk (boxes of 32 k x the
  // tile's rows), B as rows of nj (boxes of 32 columns x 32 k); the mma.sync entries take none.
  for (std::size_t e : {0, 1}) {
    const std::vector<TensorMapOperand>& maps = gemm.planEntries[e].tensorMaps;
    REQUIRE(maps.size() == 2);
    CHECK(maps[0].buffer == 0);       // A
    CHECK(maps[0].strideParam == 4);  // nk
    CHECK(maps[0].boxCols == 32);
    CHECK(maps[0].boxRows == (e == 0 ? 256 : 128));
    CHECK(maps[1].buffer == 1);       // B
    CHECK(maps[1].strideParam == 5);  // nj
    CHECK(maps[1].boxCols == 32);
    CHECK(maps[1].boxRows == 32);
  }
  CHECK(gemm.planEntries[2].tensorMaps.empty());
  CHECK(gemm.planEntries[2].sharedBytes == 3 * 16 * (128 + 8) * 4 * 2);  // above 48 KiB: dynamic
  CHECK(gemm.planEntries[3].sharedBytes == 0);
  CHECK(gemm.loopPlanReason.find("tf32 operands, fp32 sums") != std::string::npos);
  {
    // The tensor-core tiles come in one form (split as the exact ones are, the 128-wide one spilled
    // and ran slower): one loop of whole and partial mma steps.
    const std::string& cuda = r.module->cudaSource;
    CHECK(cuda.find("culift_Gemm_tc128_whole") == std::string::npos);
    CHECK(cuda.find("culift_Gemm_tc128_edge") == std::string::npos);
    const std::size_t entry = cuda.find(" Gemm_tc128(");
    REQUIRE(entry != std::string::npos);
    const std::string text = cuda.substr(entry, cuda.find("\n}\n", entry) - entry);
    CHECK(text.find("culift_mma_tf32(") != std::string::npos);
    CHECK(text.find("culift_rem") != std::string::npos);
    // The entry on warpgroups: wgmma where compiled for sm_90a (A's tile swizzled, zeros past its
    // end, fenced for the tensor cores), the mma.sync body elsewhere; one block a multiprocessor
    // with wgmma, two without.
    for (const char* name : {"Gemm_wg256", "Gemm_wg128"}) {
      INFO(name);
      const std::size_t wg = cuda.find(" " + std::string(name) + "(");
      REQUIRE(wg != std::string::npos);
      const std::string wgText = cuda.substr(wg, cuda.find("\n}\n", wg) - wg);
      const std::size_t sm90a = wgText.find("#if defined(__CUDA_ARCH_FEAT_SM90_ALL)"), other = wgText.find("#else");
      REQUIRE(sm90a != std::string::npos);
      REQUIRE(other != std::string::npos);
      const std::string wgmma = wgText.substr(sm90a, other - sm90a), mma = wgText.substr(other);
      CHECK(wgmma.find("culift_wgmma_tf32(") != std::string::npos);
      CHECK(wgmma.find("culift_fence_async_shared();") != std::string::npos);
      CHECK(wgmma.find("((culift_q >> 2) ^ (culift_r & 7))") != std::string::npos);
      CHECK(wgmma.find("= 0.0f;") != std::string::npos);
      CHECK(wgmma.find("culift_mma_tf32(") == std::string::npos);
      // Whole tiles of both operands copied in 16-byte groups where aligned: A's of 4 k of a row
      // (stepping by rows), B's of 4 columns of a k.
      CHECK(wgmma.find("culift_w0 && culift_w1") != std::string::npos);
      CHECK(wgmma.find("culift_copy_async16(&culift_s0[culift_sc][culift_r * 32 + (((culift_q >> 2) ^ (culift_r & 7)) "
                       "<< 2) + (culift_q & 3)], culift_g + culift_u * 32 * culift_dr0, 16);") != std::string::npos);
      CHECK(wgmma.find("culift_copy_async16(&culift_s1[culift_sc][((culift_r) >> 5) * 1024 + (culift_q) * 32 + "
                       "((((culift_r) & 31) >> 2) ^ ((culift_q) & 7)) * 4 + ((culift_r) & 3)]") != std::string::npos);
      // The whole tiles by bulk tensor copies where the maps hold, in a loop of their own.
      CHECK(wgmma.find("culift_tensor_copy(&culift_s0[culift_sc][0], culift_map0") != std::string::npos);
      CHECK(wgmma.find("culift_tensor_copy(&culift_s1[culift_sc][culift_b * 1024], culift_map1") != std::string::npos);
      CHECK(wgmma.find("culift_barrier_wait(&culift_full[culift_st]") != std::string::npos);
      if (std::string(name) == "Gemm_wg256") {
        // A copying warpgroup: its thread 256 fills each stage once the workers freed it; the workers
        // wait for it, multiply and free it, with no barrier of the block in their loop, then copy the
        // tiles left themselves after a barrier of theirs; their registers raised, its lowered.
        CHECK(wgmma.find("if (threadIdx.x >= 256) {\n    culift_registers_copier();") != std::string::npos);
        CHECK(wgmma.find("culift_barrier_wait(&culift_empty[culift_sc]") != std::string::npos);
        CHECK(wgmma.find("culift_barrier_init(&culift_empty[culift_s], 256);") != std::string::npos);
        CHECK(wgmma.find("culift_registers_worker();") != std::string::npos);
        const std::size_t loop = wgmma.find("for (; culift_kt <= culift_kmax; culift_kt += 32) {");
        REQUIRE(loop != std::string::npos);
        const std::string tmaLoop = wgmma.substr(loop, wgmma.find("\n  }\n", loop) - loop);
        CHECK(tmaLoop.find("culift_barrier_arrive(&culift_empty[culift_st]);") != std::string::npos);
        CHECK(tmaLoop.find("__syncthreads") == std::string::npos);
        CHECK(tmaLoop.find("culift_copy_async") == std::string::npos);
        CHECK(wgmma.find("culift_sync_workers();") != std::string::npos);
        // Its copies issued, the copying thread brings the lines of C the epilogue reads into L2,
        // a line per 32 floats of each of the block's rows.
        const std::size_t prefetch = wgmma.find("if (j < culift_nj) culift_prefetch_l2(&C[(i * nj) + j]);");
        CHECK(prefetch != std::string::npos);
        CHECK(prefetch < wgmma.find("culift_registers_worker();"));
        CHECK(wgmma.find("for (int culift_q = 0; culift_q < 128; culift_q += 32)") != std::string::npos);
        CHECK(mma.find("if (threadIdx.x >= 256) return;") != std::string::npos);
        CHECK(mma.find("__syncthreads") == std::string::npos);
      } else {
        // Thread 0 issues the copies in the block's loop, in a loop of their own.
        CHECK(wgmma.find("for (; culift_kt + 96 <= culift_kmax; culift_kt += 32)") != std::string::npos);
        CHECK(wgmma.find("culift_empty") == std::string::npos);
      }
      CHECK(mma.find("culift_tensor_copy(") == std::string::npos);
      CHECK(mma.find("culift_mma_tf32(") != std::string::npos);
      CHECK(mma.find("culift_wgmma_tf32(") == std::string::npos);
      CHECK(mma.find("culift_copy_async16(") == std::string::npos);  // the mma.sync body copies elements
    }
    // Two blocks a multiprocessor for the 128-row tile's mma.sync body, one for the 256-row one.
    CHECK(cuda.find("__launch_bounds__(256, CULIFT_WARPGROUP_BLOCKS) Gemm_wg128(") != std::string::npos);
    CHECK(cuda.find("__launch_bounds__(384, 1) Gemm_wg256(") != std::string::npos);
    CHECK(cuda.find("const __grid_constant__ culift_tensor_map culift_map0, const __grid_constant__ culift_tensor_map "
                    "culift_map1, int culift_maps) {") != std::string::npos);
  }
  // B read as (j, k): its rows are not row-major along j, so neither operand goes by tensor copy (the
  // entries copy with cp.async and take no maps); a literal stride is one.
  for (const auto& [name, maps] : {std::pair{"GemmNT", std::size_t{0}}, std::pair{"Narrow", std::size_t{2}}}) {
    INFO(name);
    const Function& f = function(r, name);
    REQUIRE(f.planEntries.size() >= 2);
    REQUIRE(onWarpgroups(f.planEntries[0]));
    CHECK(f.planEntries[0].tensorMaps.size() == maps);
    if (maps) CHECK(f.planEntries[0].tensorMaps[1].strideParam == kNone);
    if (maps) CHECK(f.planEntries[0].tensorMaps[1].stride == 64);
  }
  // Outputs that return before the loop are marked in 64 bits a thread: not the 256-row tile's 128.
  CHECK(entryNames(function(r, "OffDiagonal")) ==
        std::vector<std::string>{"OffDiagonal_wg128", "OffDiagonal_tc128", "OffDiagonal_tc64"});
  // `s = s + b * a` with the operands in either order, a symmetric kernel too: the opt-in comes first.
  const Function& gram = function(r, "Gram");
  CHECK(gram.tensorCores == TensorCores::BF16);
  CHECK(gram.loopPlan == LoopPlan::TensorCoreContraction);
  CHECK(gram.loopPlanReason.find("bf16 operands") != std::string::npos);
  CHECK(entryNames(gram) == std::vector<std::string>{"Gram_tc128", "Gram_tc64"});  // warpgroups: tf32 only
  // Not one sum of products of float operands: the exact plans, with the reason.
  for (const char* name : {"TwoSums", "Doubles"}) {
    const Function& f = function(r, name);
    INFO(name << ": " << culift::name(f.loopPlan) << " (" << f.loopPlanReason << ")");
    CHECK(f.loopPlan == LoopPlan::TiledContraction);
    CHECK(f.loopPlanReason.find("no tensor cores: the loop body is not one `sum += a * b`") != std::string::npos);
  }
  // Without the opt-in nothing changes; the translate option opts every kernel in.
  CHECK(function(r, "Exact").tensorCores == TensorCores::None);
  CHECK(function(r, "Exact").loopPlan == LoopPlan::TiledContraction);
  TranslateOptions options;
  options.tensorCores = TensorCores::FP16;
  TranslateResult all = lift(
      "CULIFT_KERNEL float Exact(const float* A, const float* B, int n, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n  return s;\n}\n",
      options);
  CHECK(function(all, "Exact").tensorCores == TensorCores::FP16);
  CHECK(function(all, "Exact").loopPlan == LoopPlan::TensorCoreContraction);
  // The format and the plan survive a module file.
  const std::shared_ptr<Module> loaded = loadModule(saveModule(*all.module));
  CHECK(loaded->find("Exact")->tensorCores == TensorCores::FP16);
  CHECK(loaded->find("Exact")->loopPlan == LoopPlan::TensorCoreContraction);
}

TEST_CASE("loop plans: batched contractions on tensor cores", "[loop-plan][tensor-cores][batched]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL_INDEX(b, i, j) CULIFT_KERNEL_TENSOR_CORES(tf32)\n"
      "float Bmm(const float* A, const float* B, int m, int nk, int n, int b, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[(b * m + i) * nk + k] * B[(b * nk + k) * n + j];\n"
      "  return s;\n}\n"
      "CULIFT_KERNEL_INDEX(b, i, j) CULIFT_KERNEL_TENSOR_CORES(bf16)\n"
      "float Twice(const float* A, const float* B, int m, int nk, int n, int b, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += 2.0f * A[(b * m + i) * nk + k] * B[k * n + j];\n"
      "  return s;\n}\n");
  const Function& bmm = function(r, "Bmm");
  INFO(culift::name(bmm.loopPlan) << " (" << bmm.loopPlanReason << ")");
  CHECK(bmm.loopPlan == LoopPlan::BatchedTensorCoreContraction);
  CHECK(entryNames(bmm) == std::vector<std::string>{"Bmm_tc128", "Bmm_tc64"});
  REQUIRE(bmm.planEntries.size() == 2);
  CHECK(bmm.planEntries[0].blockMapping() == BlockMapping::BatchedTiles2D);
  CHECK(onTensorCores(bmm.loopPlan));
  CHECK_FALSE(onTensorCores(LoopPlan::BatchedTiledContraction));
  // A scaled product is not the form: the exact batched tiles, with the reason.
  const Function& twice = function(r, "Twice");
  CHECK(twice.loopPlan == LoopPlan::BatchedTiledContraction);
  CHECK(twice.loopPlanReason.find("no tensor cores") != std::string::npos);
}

TEST_CASE("loop plans: a tensor-core annotation names a format", "[loop-plan][tensor-cores]") {
  TranslateResult r = lift(
      "CULIFT_KERNEL_TENSOR_CORES(fp8) float F(const float* A, int n, int i, int j) { return A[i * n + j]; }\n");
  CHECK_FALSE(r.module);
  const std::string text = r.formatDiagnostics(false);
  CHECK(text.find("CULIFT_KERNEL_TENSOR_CORES on 'F' names 'fp8', not a tensor-core format") != std::string::npos);
  CHECK(text.find("write CULIFT_KERNEL_TENSOR_CORES(tf32), (bf16) or (fp16)") != std::string::npos);
}
