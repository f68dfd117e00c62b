// The culift CLI verbs `emit` and `ast`, run as a user would: exit codes 0 (ok),
// 1 (diagnostics), 2 (usage); -o, --function, -p and arguments after `--`.
#include <fstream>
#include <optional>
#include <sstream>

#include "catch.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "temp_files.hpp"

namespace {

using culift::test::readFile;
using culift::test::writeFile;

// Scratch directories named after this suite.
struct TempDir : culift::test::TempDir {
  TempDir() : culift::test::TempDir("culift-cli") {}
};

const std::string kCulift = std::string(CULIFT_BINARY_DIR) + "/tools/culift";

struct Run {
  int code;
  std::string out, err;
};

Run runCulift(const std::vector<std::string>& args, const TempDir& dir) {
  const std::string out = dir.file("stdout.txt"), err = dir.file("stderr.txt");
  // Redirection does not truncate: start from empty files.
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(err);
  std::vector<llvm::StringRef> argv = {kCulift};
  for (const std::string& a : args) argv.push_back(a);
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out), llvm::StringRef(err)};
  const int code = llvm::sys::ExecuteAndWait(kCulift, argv, std::nullopt, redirects);
  return {code, readFile(out), readFile(err)};
}

const char* kKernels =
    "#include <culift/annotate.hpp>\n"
    "CULIFT_KERNEL float RowSum(const float* x, int cols, int i) {\n"
    "  float s = 0.0f;\n  for (int k = 0; k < cols; ++k) s += x[i * cols + k];\n  return s;\n}\n"
    "float Plain(float a, float b) { return a * b; }\n"
    "float Other(float a) { return -a; }\n";

}  // namespace

TEST_CASE("culift emit: usage errors exit 2", "[cli]") {
  TempDir dir;
  Run none = runCulift({"emit"}, dir);
  CHECK(none.code == 2);
  CHECK_THAT(none.err, Catch::Contains("no input file"));
  Run missing = runCulift({"emit", dir.file("missing.cpp")}, dir);
  CHECK(missing.code == 2);
  CHECK_THAT(missing.err, Catch::Contains("cannot read '" + dir.file("missing.cpp") + "'"));
  Run astMissing = runCulift({"ast"}, dir);
  CHECK(astMissing.code == 2);
}

TEST_CASE("culift emit: success to stdout and to -o", "[cli]") {
  TempDir dir;
  writeFile(dir.file("k.cpp"), kKernels);
  Run toStdout = runCulift({"emit", dir.file("k.cpp")}, dir);
  INFO(toStdout.err);
  CHECK(toStdout.code == 0);
  CHECK(toStdout.err.empty());
  Run toFile = runCulift({"emit", dir.file("k.cpp"), "-o", dir.file("k.cu"), "--no-line-directives"}, dir);
  CHECK(toFile.code == 0);
  CHECK(toFile.out.empty());
  const std::string emitted = readFile(dir.file("k.cu"));
  CHECK_THAT(emitted, Catch::Contains("RowSum_kernel"));
  CHECK_THAT(emitted, !Catch::Contains("#line"));
  Run withLines = runCulift({"emit", dir.file("k.cpp"), "-o", dir.file("lines.cu")}, dir);
  CHECK(withLines.code == 0);
  CHECK(readFile(dir.file("lines.cu")) == toStdout.out);
  CHECK_THAT(toStdout.out, Catch::Contains("#line"));
}

TEST_CASE("culift emit: diagnostics go to stderr and exit 1", "[cli]") {
  TempDir dir;
  writeFile(dir.file("bad.cpp"),
            "#include <culift/annotate.hpp>\nCULIFT_KERNEL int f(int n) { return n ? f(n - 1) : 0; }\n");
  Run r = runCulift({"emit", dir.file("bad.cpp")}, dir);
  CHECK(r.code == 1);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains(dir.file("bad.cpp") + ":2:41: error: recursive call to 'f'"));
  CHECK_THAT(r.err, Catch::Contains("note: recursion is not supported on the device"));
  CHECK_THAT(r.err, !Catch::Contains("\x1b["));  // not a terminal: no colour
  writeFile(dir.file("none.cpp"), "int g() { return 1; }\n");
  Run none = runCulift({"emit", dir.file("none.cpp")}, dir);
  CHECK(none.code == 1);
  CHECK_THAT(none.err, Catch::Contains("no functions annotated with CULIFT_KERNEL"));
}

TEST_CASE("culift ast: modes, names, signatures; --function picks", "[cli]") {
  TempDir dir;
  writeFile(dir.file("k.cpp"), kKernels);
  Run all = runCulift({"ast", dir.file("k.cpp")}, dir);
  INFO(all.err);
  REQUIRE(all.code == 0);
  CHECK_THAT(
      all.out,
      Catch::Contains(
          "function RowSum\n  index mode: Grid1D\n  device:     RowSum\n  kernel:     RowSum_kernel (32-bit indices, 1 item "
          "per thread, arrays 16-byte aligned), RowSum_kernel64 (64-bit)\n"
          "  loop plan:  row reduction (exact order); entries RowSum_rows32, RowSum_rows8\n"));
  CHECK_THAT(all.out, Catch::Contains("    const float* x  [input array]\n    int cols  [scalar]\n"
                                      "    float* culift_out  [out]\n    long long culift_n  [extent]\n"));
  CHECK_THAT(all.out, !Catch::Contains("function Plain"));
  Run picked = runCulift({"ast", dir.file("k.cpp"), "--function", "Plain"}, dir);
  REQUIRE(picked.code == 0);
  CHECK_THAT(picked.out, Catch::Contains("function Plain\n  index mode: ElementWise\n"));
  CHECK_THAT(picked.out, Catch::Contains("  loop plan:  per-thread (the body has no loop)\n"));
  // --function selects: the annotated RowSum is not translated when another function is picked.
  CHECK_THAT(picked.out, !Catch::Contains("function RowSum"));
  CHECK_THAT(picked.out, !Catch::Contains("function Other"));
  Run unknown = runCulift({"emit", dir.file("k.cpp"), "--function", "Nope"}, dir);
  CHECK(unknown.code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("no function named 'Nope'"));
}

TEST_CASE("culift ast: an element-wise kernel's uniform parameters are marked so", "[cli][uniform]") {
  TempDir dir;
  writeFile(dir.file("u.cpp"),
            "#include <culift/annotate.hpp>\n"
            "CULIFT_UNIFORM(a, b) float Axpby(float a, float x, float b, float y) { return a * x + b * y; }\n");
  Run r = runCulift({"ast", dir.file("u.cpp")}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("    float a  [uniform]\n    const float* x  [element input]\n"
                                    "    float b  [uniform]\n    const float* y  [element input]\n"));
  CHECK_THAT(r.out, Catch::Contains("// parameters: a (uniform), x (element input), b (uniform), y (element input)\n"));
}

TEST_CASE("culift emit: arguments after -- reach Clang", "[cli]") {
  TempDir dir;
  writeFile(dir.file("n.cpp"), "#include <culift/annotate.hpp>\nCULIFT_KERNEL int f(int i) { return N * i; }\n");
  Run without = runCulift({"emit", dir.file("n.cpp")}, dir);
  CHECK(without.code == 1);
  CHECK_THAT(without.err, Catch::Contains("use of undeclared identifier 'N'"));
  Run with = runCulift({"emit", dir.file("n.cpp"), "--", "-DN=4"}, dir);
  INFO(with.err);
  CHECK(with.code == 0);
}

TEST_CASE("culift emit -p uses compile_commands.json", "[cli]") {
  TempDir dir;
  writeFile(dir.file("db.cpp"),
            "#include <culift/annotate.hpp>\n#include \"inc/scale.hpp\"\n"
            "CULIFT_KERNEL int f(int i) { return FROM_DB * kScale * i; }\n");
  llvm::sys::fs::create_directory(dir.file("inc"));
  writeFile(dir.file("inc/scale.hpp"), "constexpr int kScale = 2;\n");
  writeFile(dir.file("compile_commands.json"),
            "[{\"directory\": \"" + dir.path() +
                "\", \"command\": \"/usr/bin/c++ -std=c++20 -DFROM_DB=3 -c db.cpp -o db.o\", "
                "\"file\": \"db.cpp\"}]\n");
  Run without = runCulift({"emit", dir.file("db.cpp")}, dir);
  CHECK(without.code == 1);
  Run with = runCulift({"ast", dir.file("db.cpp"), "-p", dir.path()}, dir);
  INFO(with.err);
  CHECK(with.code == 0);
  CHECK_THAT(with.out, Catch::Contains("function f"));
  Run badDir = runCulift({"emit", dir.file("db.cpp"), "-p", dir.file("nowhere")}, dir);
  CHECK(badDir.code == 1);
  CHECK_THAT(badDir.err, Catch::Contains("cannot load a compilation database"));
}
