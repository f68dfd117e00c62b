// Golden tests: each golden/<construct>.cpp is translated by the front end; its CUDA must meet
// golden/<construct>.expect and compile with NVRTC for sm_90. CULIFT_UPDATE_GOLDENS=1 rewrites
// the .expect files from the current output, for review in the diff.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#include "catch.hpp"
#include "culift/codegen.hpp"
#include "culift/translate.hpp"
#include "golden_check.hpp"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "nvrtc_compile.hpp"
#include "temp_files.hpp"

using namespace culift;
using namespace culift::test;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TranslateOptions goldenOptions() {
  TranslateOptions o;
  o.compilerArgs = {"-I" CULIFT_SOURCE_DIR "/include"};
  return o;
}

std::vector<fs::path> filesIn(const fs::path& dir, const std::string& extension) {
  std::vector<fs::path> files;
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == extension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

struct CompileTally {
  size_t modules = 0;
  double nvrtcMs = 0;
  void add(double ms) {
    if (ms < 0) return;
    ++modules;
    nvrtcMs += ms;
  }
  void report(const std::string& what) const {
    std::cout << what << ": " << modules << " modules compiled by NVRTC for sm_90 in " << nvrtcMs << " ms ("
              << (modules ? nvrtcMs / static_cast<double>(modules) : 0.0) << " ms each)\n";
  }
};

}  // namespace

TEST_CASE("golden inputs emit the expected CUDA, and it compiles", "[codegen][golden][nvrtc]") {
  const fs::path dir = fs::path(CULIFT_TEST_DATA_DIR) / "codegen" / "golden";
  const bool update = std::getenv("CULIFT_UPDATE_GOLDENS") != nullptr;
  const std::vector<fs::path> inputs = filesIn(dir, ".cpp");
  REQUIRE(!inputs.empty());
  CompileTally tally;
  const auto start = std::chrono::steady_clock::now();
  size_t failed = 0;
  for (const fs::path& input : inputs) {
    // Every golden runs even when an earlier one fails: CHECKs, not REQUIREs, below.
    INFO("golden " << input.filename().string());
    // A fixed virtual name keeps paths in the output (header, #line) the same on every machine.
    const TranslateResult result = translateSource(readFile(input), "golden/" + input.filename().string(),
                                                   goldenOptions());
    INFO(result.formatDiagnostics());
    CHECK(result.ok());
    if (!result.ok() || result.module->cudaSource.empty()) {
      ++failed;
      continue;
    }
    const std::string& cuda = result.module->cudaSource;
    const std::vector<std::string> lines = goldenLines(cuda);

    fs::path expectPath = input;
    expectPath.replace_extension(".expect");
    GoldenExpectations expected;
    if (fs::exists(expectPath)) expected = parseExpectations(readFile(expectPath));
    if (update) {
      std::ofstream(expectPath, std::ios::binary) << renderExpectations(expected, lines);
      expected = parseExpectations(readFile(expectPath));
    }
    INFO("no CHECK lines in " << expectPath.filename().string() << ": run with CULIFT_UPDATE_GOLDENS=1 and review it");
    CHECK(!expected.checks.empty());
    const std::string failures = checkGolden(expected, lines);
    INFO("emitted CUDA:\n" << cuda);
    CHECK(failures == "");
    const NvrtcFixture& nvrtc = nvrtcFixture();
    if (!nvrtc.nvrtc) {
      culift::test::noNvrtc(nvrtc.whyNot);
      continue;
    }
    const rt::CompileOutput compiled = nvrtc.nvrtc->compile(cuda, cudaFileName(*result.module), 90, true, {});
    INFO("NVRTC log:\n" << compiled.log);
    CHECK(compiled.ok);
    if (compiled.ok) tally.add(compiled.milliseconds);
    if (expected.checks.empty() || !failures.empty() || !compiled.ok) ++failed;
  }
  CHECK(failed == 0);
  const double wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  tally.report(std::to_string(inputs.size()) +
               " goldens (translate + check + compile: " + std::to_string(static_cast<long>(wallMs)) + " ms wall)");
}

TEST_CASE("every example translates and its CUDA compiles", "[codegen][examples][nvrtc]") {
  const std::vector<fs::path> headers = filesIn(fs::path(CULIFT_SOURCE_DIR) / "examples", ".hpp");
  CompileTally tally;
  for (const fs::path& header : headers) {
    INFO("example " << header.string());
    const TranslateResult result = translate(header.string(), goldenOptions());
    INFO(result.formatDiagnostics());
    REQUIRE(result.ok());
    REQUIRE(!result.module->functions.empty());
    tally.add(requireCompiles(result.module->cudaSource, cudaFileName(*result.module)));
  }
  tally.report(std::to_string(headers.size()) + " example headers");
}

TEST_CASE("the Pearson six translate to six kernels that compile", "[codegen][pearson][nvrtc]") {
  const fs::path header = fs::path(CULIFT_SOURCE_DIR) / "examples" / "pearson" / "pearson_metrics.hpp";
  if (!fs::exists(header)) {
    WARN("skipped: " << header.string() << " does not exist yet");
    return;
  }
  const TranslateResult result = translate(header.string(), goldenOptions());
  INFO(result.formatDiagnostics());
  REQUIRE(result.ok());
  const Module& module = *result.module;
  for (const char* name : {"RowSum", "RowSumSq", "GramDot", "CorrelationCell", "DistanceCell", "PearsonClamp"}) {
    INFO("function " << name);
    const Function* fn = module.find(name);
    REQUIRE(fn != nullptr);
    CHECK(fn->isKernel());
    CHECK(module.cudaSource.find("extern \"C\" __global__ void " + fn->kernelName + "(") != std::string::npos);
  }
  requireCompiles(module.cudaSource, cudaFileName(module));
}

TEST_CASE("golden checks: every line exactly, CHECK-NOT, prelude and #line skipped, update keeps comments",
          "[codegen][golden]") {
  const std::string cuda =
      "// header\n\n// ---- culift device prelude: x ----\nint culift_min;\n// ---- end of culift device prelude ----\n"
      "#line 4 \"k.cpp\"\n__device__ int F() {\n  return 1;\n}\n";
  const std::vector<std::string> lines = goldenLines(cuda);
  REQUIRE(lines.size() == 4);
  CHECK(lines[1] == "__device__ int F() {");
  const std::string all = "CHECK: // header\nCHECK: __device__ int F() {\nCHECK:   return 1;\nCHECK: }\n";
  CHECK(checkGolden(parseExpectations(all), lines).empty());
  CHECK(checkGolden(parseExpectations("CHECK-NOT: culift_min\n" + all), lines).empty());  // prelude skipped
  CHECK_FALSE(checkGolden(parseExpectations("CHECK-NOT: return\n" + all), lines).empty());
  // Exact, line for line: a part of a line, another order, an indentation, a line too many or too few.
  CHECK_FALSE(
      checkGolden(parseExpectations("CHECK: // header\nCHECK: F()\nCHECK:   return 1;\nCHECK: }\n"), lines).empty());
  CHECK_FALSE(
      checkGolden(parseExpectations("CHECK: // header\nCHECK:   return 1;\nCHECK: __device__ int F() {\nCHECK: }\n"),
                  lines)
          .empty());
  CHECK_FALSE(
      checkGolden(parseExpectations("CHECK: // header\nCHECK: __device__ int F() {\nCHECK: return 1;\nCHECK: }\n"),
                  lines)
          .empty());
  CHECK_FALSE(checkGolden(parseExpectations(all + "CHECK: }\n"), lines).empty());
  CHECK_FALSE(
      checkGolden(parseExpectations("CHECK: // header\nCHECK: __device__ int F() {\nCHECK:   return 1;\n"), lines)
          .empty());
  const GoldenExpectations kept = parseExpectations("// why this golden exists\nCHECK-NOT: goto\nCHECK: stale\n");
  CHECK(
      renderExpectations(kept, lines) ==
      "// why this golden exists\nCHECK-NOT: goto\nCHECK: // header\nCHECK: __device__ int F() {\nCHECK:   return 1;\nCHECK: }\n");
}

TEST_CASE("asserts are compiled out by default and checked with CULIFT_DEVICE_ASSERTS", "[codegen][assert][nvrtc]") {
  const fs::path input = fs::path(CULIFT_TEST_DATA_DIR) / "codegen" / "golden" / "assert.cpp";
  const TranslateResult result = translateSource(readFile(input), "golden/assert.cpp", goldenOptions());
  INFO(result.formatDiagnostics());
  REQUIRE(result.ok());
  const std::string& cuda = result.module->cudaSource;
  CHECK(cuda.find("#ifdef CULIFT_DEVICE_ASSERTS") != std::string::npos);
  CHECK(cuda.find("culift_assert(n > 0, \"n > 0\", \"assert.cpp\", 13);") != std::string::npos);
  // A module without asserts carries no assert prelude.
  const TranslateResult plain = translateSource(
      "#include <culift/annotate.hpp>\nCULIFT_KERNEL float F(float x) { return x; }\n", "plain.cpp", goldenOptions());
  REQUIRE(plain.ok());
  CHECK(plain.module->cudaSource.find("culift_assert") == std::string::npos);

  const NvrtcFixture& nvrtc = nvrtcFixture();
  if (!nvrtc.nvrtc) {
    culift::test::noNvrtc(nvrtc.whyNot);
    return;
  }
  // PTX: the checked build calls the device's assert handler, the default one does not.
  const rt::CompileOutput off = nvrtc.nvrtc->compile(cuda, cudaFileName(*result.module), 90, false, {});
  const rt::CompileOutput on = nvrtc.nvrtc->compile(cuda, cudaFileName(*result.module), 90, false,
                                                    {"-DCULIFT_DEVICE_ASSERTS"});
  INFO("NVRTC logs:\n" << off.log << "\n" << on.log);
  REQUIRE(off.ok);
  REQUIRE(on.ok);
  const std::string offPtx(off.image.begin(), off.image.end()), onPtx(on.image.begin(), on.image.end());
  CHECK(offPtx.find("__assertfail") == std::string::npos);
  CHECK(onPtx.find("__assertfail") != std::string::npos);
}

// Each kernel sits behind its guard: compiled with -DCULIFT_ONLY_ENTRIES and the kernels' macros,
// the module holds those kernels alone (the runtime's EngineOptions::compileEachEntry); without,
// every kernel.
TEST_CASE("a module compiled for some of its kernels holds those alone", "[codegen][nvrtc]") {
  const TranslateResult result = translateSource(
      "#include <culift/annotate.hpp>\n"
      "CULIFT_KERNEL float Scale(const float* x, float a, int i) { return a * x[i]; }\n"
      "CULIFT_KERNEL float Gemm(const float* A, const float* B, int nk, int nj, int i, int j) {\n"
      "  float s = 0.0f;\n  for (int k = 0; k < nk; ++k) s += A[i * nk + k] * B[k * nj + j];\n  return s;\n}\n",
      "entries.cpp", goldenOptions());
  INFO(result.formatDiagnostics());
  REQUIRE(result.ok());
  const Module& m = *result.module;
  std::vector<std::string> kernels;
  for (const Function* fn : m.kernels()) {
    kernels.insert(kernels.end(), {fn->kernelName, fn->wideKernelName, fn->partKernelName()});
    for (const PlanEntry& e : fn->planEntries) {
      kernels.push_back(e.kernelName);
      CHECK(e.edgeKernel);
    }
  }
  REQUIRE(kernels.size() == 8);  // Gemm_tiled128 and _tiled64 beside the wrappers
  for (const std::string& k : kernels) {
    INFO(k);
    CHECK(m.cudaSource.find("#if !defined(CULIFT_ONLY_ENTRIES) || defined(" + entryMacro(k) + ")") !=
          std::string::npos);
  }
  kernels.insert(kernels.end(), {"Gemm_tiled128_edge", "Gemm_tiled64_edge"});  // behind their entries' guards
  const NvrtcFixture& nvrtc = nvrtcFixture();
  if (!nvrtc.nvrtc) {
    culift::test::noNvrtc(nvrtc.whyNot);
    return;
  }
  // The kernels (".entry NAME(") of the PTX of the module compiled with `options`.
  auto entries = [&](const std::vector<std::string>& options) {
    const rt::CompileOutput out = nvrtc.nvrtc->compile(m.cudaSource, cudaFileName(m), 90, false, options);
    INFO("NVRTC log:\n" << out.log);
    REQUIRE(out.ok);
    const std::string ptx(out.image.begin(), std::find(out.image.begin(), out.image.end(), 0));
    std::vector<std::string> found;
    for (const std::string& k : kernels)
      if (ptx.find(".entry " + k + "(") != std::string::npos) found.push_back(k);
    return found;
  };
  CHECK(entries({}) == kernels);
  const std::string only = "-D" + std::string(kOnlyEntriesMacro);
  CHECK(entries({only, "-D" + entryMacro("Gemm_tiled128")}) ==
        std::vector<std::string>{"Gemm_tiled128", "Gemm_tiled128_edge"});
  CHECK(entries({only, "-D" + entryMacro("Scale_kernel"), "-D" + entryMacro("Gemm_kernel_part")}) ==
        std::vector<std::string>{"Scale_kernel", "Gemm_kernel_part"});
  CHECK(entries({only}).empty());
}

// The device compiler turns a comparison and selection with a constant zero into a max / min
// instruction, which orders -0.0 below +0.0 where C++ finds them equal. Zeros reach it through
// culift_zero, so no such instruction is left in the PTX of the signed-zero golden; the same
// source with the zeros spelled as plain literals has them (the check can fail).
TEST_CASE("comparisons with a zero constant compile to no max or min instruction", "[codegen][nvrtc]") {
  const TranslateResult result =
      translate((fs::path(CULIFT_SOURCE_DIR) / "tests/codegen/golden/signed_zeros.cpp").string(), goldenOptions());
  INFO(result.formatDiagnostics());
  REQUIRE(result.ok());
  const NvrtcFixture& nvrtc = nvrtcFixture();
  if (!nvrtc.nvrtc) {
    culift::test::noNvrtc(nvrtc.whyNot);
    return;
  }
  auto minMaxInstructions = [&](const std::string& cuda) {
    const rt::CompileOutput ptx = nvrtc.nvrtc->compile(cuda, "signed_zeros.cu", 90, false, {"--fmad=false"});
    INFO("NVRTC log:\n" << ptx.log);
    REQUIRE(ptx.ok);
    const std::string text(ptx.image.begin(), ptx.image.end());
    std::size_t count = 0;
    for (const char* op : {"\tmax.f", "\tmin.f"})
      for (std::size_t at = text.find(op); at != std::string::npos; at = text.find(op, at + 1)) ++count;
    return count;
  };
  const std::string cuda = result.module->cudaSource;
  CHECK(minMaxInstructions(cuda) == 0);
  std::string plain = cuda;
  for (const std::string zero : {"culift_zero(0.0f)", "culift_zero(0.0)"})
    for (std::size_t at = plain.find(zero); at != std::string::npos; at = plain.find(zero, at))
      plain.replace(at, zero.size(), zero.substr(12, zero.size() - 13));
  CHECK(minMaxInstructions(plain) > 0);
}

// The 128-wide tiled entries of two staged arrays keep to 128 registers a thread, so that two
// blocks of 256 threads fit on an SM: at 130 (a culift_zero per accumulator) GramDot_sym128 ran at
// 44 TFLOP/s on the H200 instead of 57. Those of more arrays (syr2k's four) run one block an SM, in
// at most 255. NVRTC writes the PTX as the runtime does; ptxas says what each entry uses.
TEST_CASE("the 128-wide tiled entries need at most 128 registers", "[codegen][pearson][nvrtc]") {
  const std::string ptxas = CULIFT_PTXAS;
  const NvrtcFixture& nvrtc = nvrtcFixture();
  if (!nvrtc.nvrtc || ptxas.empty() || !fs::exists(ptxas)) {
    culift::test::noNvrtc(nvrtc.nvrtc ? "ptxas not found" : nvrtc.whyNot);
    return;
  }
  TranslateOptions options = goldenOptions();
  const TranslateResult pearson =
      translate((fs::path(CULIFT_SOURCE_DIR) / "examples/pearson/pearson_metrics.hpp").string(), options);
  const TranslateResult blas = translate((fs::path(CULIFT_SOURCE_DIR) / "bench/gpu/blas_cells.hpp").string(), options);
  INFO(pearson.formatDiagnostics() << blas.formatDiagnostics());
  REQUIRE(pearson.ok());
  REQUIRE(blas.ok());
  llvm::SmallString<128> dir;
  REQUIRE_FALSE(llvm::sys::fs::createUniqueDirectory("culift-ptxas", dir));
  unsigned checked = 0;
  for (const TranslateResult* r : {&pearson, &blas}) {
    const rt::CompileOutput ptx = nvrtc.nvrtc->compile(r->module->cudaSource, "tiles.cu", 90, false, {});
    INFO("NVRTC log:\n" << ptx.log);
    REQUIRE(ptx.ok);
    const std::string file = std::string(dir) + "/tiles.ptx", log = std::string(dir) + "/ptxas.log",
                      cubin = std::string(dir) + "/tiles.cubin";
    const std::string text(ptx.image.begin(), std::find(ptx.image.begin(), ptx.image.end(), 0));
    std::ofstream(file, std::ios::binary) << text;
    llvm::StringRef args[] = {ptxas, "-arch=sm_90", "-v", file, "-o", cubin};
    const std::optional<llvm::StringRef> redirects[] = {llvm::StringRef(""), llvm::StringRef(log),
                                                        llvm::StringRef(log)};
    const int status = culift::test::executeAndWait(ptxas, args, std::nullopt, redirects, 300);
    std::ifstream in(log);
    if (status != 0) FAIL("ptxas exit " << status << ":\n" << std::string(std::istreambuf_iterator<char>(in), {}));
    std::string line, entry;
    while (std::getline(in, line)) {
      if (const auto at = line.find("Compiling entry function '"); at != std::string::npos) {
        entry = line.substr(at + 26, line.find('\'', at + 26) - at - 26);
      } else if (const auto used = line.find("Used "); used != std::string::npos && entry.ends_with("128")) {
        const int registers = std::stoi(line.substr(used + 5));
        INFO(entry << ": " << line);
        CHECK(registers <= (entry == "Syr2kCell_tiled128" ? 255 : 128));
        ++checked;
      }
    }
  }
  llvm::sys::fs::remove_directories(std::string(dir));
  CHECK(checked >= 4);  // GramDot_tiled128, GramDot_sym128, GemmCell_tiled128, SyrkCell_tiled128
}

// The PTX NVRTC writes for the runtime (strict math) of golden `name`; nothing, said so, without
// NVRTC.
std::optional<std::string> goldenPtx(const std::string& name) {
  const NvrtcFixture& nvrtc = nvrtcFixture();
  if (!nvrtc.nvrtc) {
    culift::test::noNvrtc(nvrtc.whyNot);
    return std::nullopt;
  }
  const TranslateResult r = translate((fs::path(CULIFT_SOURCE_DIR) / "tests/codegen/golden" / (name + ".cpp")).string(),
                                      goldenOptions());
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  const rt::CompileOutput ptx = nvrtc.nvrtc->compile(r.module->cudaSource, name + ".cu", 90, false, {"--fmad=false"});
  INFO("NVRTC log:\n" << ptx.log);
  REQUIRE(ptx.ok);
  return std::string(ptx.image.begin(), std::find(ptx.image.begin(), ptx.image.end(), 0));
}

// Arithmetic on chars and shorts reaches the device compiler in 32 bits: given a conversion it
// can see through, it narrows `s = -s` to a neg.s16, which the device assembler widens wrongly
// for -32768 (+32768 from `(long long)s`). The narrow kernels' PTX, as NVRTC writes it for the
// runtime, holds no 16-bit arithmetic.
TEST_CASE("char and short arithmetic stays in 32 bits in the PTX", "[codegen][nvrtc]") {
  const std::optional<std::string> text = goldenPtx("narrow_wraparound");
  if (!text) return;
  std::istringstream lines(*text);
  std::string line;
  unsigned entries = 0;
  while (std::getline(lines, line)) {
    entries += line.find(".entry ") != std::string::npos;
    std::istringstream words(line);
    std::string op;
    words >> op;
    const bool narrow = op.ends_with(".s16") || op.ends_with(".u16") || op.ends_with(".b16");
    const bool arithmetic = op.starts_with("neg.") || op.starts_with("add.") || op.starts_with("sub.") ||
                            op.starts_with("mul.") || op.starts_with("mad.") || op.starts_with("shl.");
    INFO("PTX: " << line);
    CHECK_FALSE((narrow && arithmetic));
  }
  CHECK(entries >= 18);  // 9 kernels, two entries each
}

// Chars and shorts widen to 64 bits from 32: after a loop, the device compiler's optimizer took
// one short's 64-bit extension for another's (golden `short_widening`, where a branch decided
// only after inlining returned before the loop). Through culift_widen, the PTX extends only
// 32-bit values to 64 bits.
TEST_CASE("chars and shorts widen to 64 bits from 32 in the PTX", "[codegen][nvrtc]") {
  const std::optional<std::string> text = goldenPtx("short_widening");
  if (!text) return;
  std::istringstream lines(*text);
  std::string line;
  unsigned widenings = 0;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string op;
    words >> op;
    if (!op.starts_with("cvt.s64.") && !op.starts_with("cvt.u64.")) continue;
    INFO("PTX: " << line);
    CHECK_FALSE((op.ends_with("16") || op.ends_with("8")));
    widenings += op.ends_with("32");
  }
  CHECK(widenings >= 4);  // a, b, c, d of Widened at least
}
