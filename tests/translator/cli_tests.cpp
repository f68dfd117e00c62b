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
  const int code = culift::test::executeAndWait(kCulift, argv, std::nullopt, redirects);
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

TEST_CASE("culift emit --host-launchers: the native entries' source, and its usage errors", "[cli][host]") {
  TempDir dir;
  writeFile(dir.file("k.cpp"),
            std::string(kKernels) +
                "namespace sig { CULIFT_KERNEL float Twice(const float* x, int i) { return 2.0f * x[i]; } }\n");
  Run r = runCulift({"emit", dir.file("k.cpp"), "--host-launchers", dir.file("k.host.cpp")}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.empty());  // no CUDA to stdout unless -o - asks for it
  const std::string host = readFile(dir.file("k.host.cpp"));
  CHECK_THAT(host, Catch::Contains("#include \"" + dir.file("k.cpp") + "\""));
  CHECK_THAT(host, Catch::Contains("using F0 = std::add_pointer_t<float (const float *, int, int)>;"));
  CHECK_THAT(host, Catch::Contains("constexpr F0 kF0 = &::RowSum;"));
  CHECK_THAT(host, Catch::Contains("constexpr F1 kF1 = &::sig::Twice;"));
  CHECK_THAT(host,
             Catch::Contains(
                 "{\"RowSum\", \"(const float* x, int cols, float* culift_out, long long culift_n)\", &launch0},"));
  CHECK_THAT(host, Catch::Contains("std::span<const culift::rt::HostLauncher> k_host_launchers()"));  // the file's stem
  Run named = runCulift({"emit", dir.file("k.cpp"), "--host-launchers", dir.file("n.cpp"), "--name", "signal_kernels"},
                        dir);
  CHECK(named.code == 0);
  CHECK_THAT(readFile(dir.file("n.cpp")), Catch::Contains("signal_kernels_host_launchers()"));
  Run badName = runCulift({"emit", dir.file("k.cpp"), "--host-launchers", dir.file("b.cpp"), "--name", "9lives"}, dir);
  CHECK(badName.code == 2);
  CHECK_THAT(badName.err, Catch::Contains("--name '9lives' is not a C++ identifier"));
  Run alone = runCulift({"emit", dir.file("k.cpp"), "--name", "x"}, dir);
  CHECK(alone.code == 2);
  CHECK_THAT(alone.err, Catch::Contains("--name goes with --host-launchers"));
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
          "  loop plan:  row reduction (exact order) (exact order: each output adds its terms to s in one chain of "
          "cols dependent additions; CULIFT_KERNEL_REASSOCIATE lifts it); entries RowSum_rows32, RowSum_rows8\n"));
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

TEST_CASE("culift ast: a tiled contraction's entries name their shared memory and edge kernels", "[cli]") {
  TempDir dir;
  writeFile(dir.file("g.cpp"),
            "#include <culift/annotate.hpp>\n"
            "CULIFT_KERNEL float Gemm(const float* A, const float* B, int n, int i, int j) {\n"
            "  float s = 0.0f;\n  for (int k = 0; k < n; ++k) s += A[i * n + k] * B[k * n + j];\n  return s;\n}\n");
  Run r = runCulift({"ast", dir.file("g.cpp")}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("; entries Gemm_tiled128 (33 KiB of dynamic shared memory; the blocks not whole: "
                                    "Gemm_tiled128_edge), Gemm_tiled64 ("));
  CHECK_THAT(r.out, Catch::Contains("the blocks not whole: Gemm_tiled64_edge)\n"));
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

TEST_CASE("culift ast --dump prints the typed AST as a tree", "[cli][dump]") {
  TempDir dir;
  writeFile(dir.file("k.cpp"), kKernels);
  Run r = runCulift({"ast", dir.file("k.cpp"), "--dump", "--function", "RowSum"}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  // The header, the variables, and nodes with their kinds, names, values, types and ranges.
  CHECK_THAT(r.out, Catch::StartsWith("Function RowSum -> float  Grid1D  2:15-6:1\n"
                                      "  Param #0 x : const float*  2:28-2:41\n"
                                      "  Param #1 cols : int  2:44-2:51\n"
                                      "  Param #2 i : int  2:54-2:58\n"
                                      "  Local #3 s : float  3:3-3:16\n"
                                      "  Local #4 k : int  4:8-4:16\n"
                                      "  Block  2:61-6:1\n"
                                      "    Decl s #3 : float  3:3-3:16\n"
                                      "      FloatLiteral 0 : float  3:13-3:16\n"
                                      "    For  4:3-4:53\n"
                                      "      init:\n"
                                      "        Decl k #4 : int  4:8-4:16\n"));
  CHECK_THAT(r.out, Catch::Contains("          CompoundAssign '+=' in float : float  4:34-4:53\n"
                                    "            VarRef s #3 : float  4:34-4:34\n"
                                    "            Subscript : float  4:39-4:53\n"
                                    "              VarRef x #0 : const float*  4:39-4:39\n"
                                    "              Binary '+' : int  4:41-4:52\n"));
  CHECK_THAT(r.out, Catch::Contains("    Return  5:3-5:10\n      VarRef s #3 : float  5:10-5:10\n"));
  // No pseudocode, no signature: the tree only.
  CHECK_THAT(r.out, !Catch::Contains("signature:"));
  CHECK_THAT(r.out, !Catch::Contains("Plain"));
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
  // No database there: a warning, and the file compiled without one (FROM_DB is then undefined).
  Run badDir = runCulift({"emit", dir.file("db.cpp"), "-p", dir.file("nowhere")}, dir);
  CHECK(badDir.code == 1);
  CHECK_THAT(badDir.err, Catch::Contains("warning: no compilation database in '" + dir.file("nowhere") +
                                         "' (no such directory): " + dir.file("db.cpp") +
                                         " is compiled with -std=c++20 and the compiler arguments given"));
  CHECK_THAT(badDir.err, Catch::Contains("use of undeclared identifier 'FROM_DB'"));
  Run fallBack = runCulift({"emit", dir.file("db.cpp"), "-p", dir.file("inc"), "--", "-DFROM_DB=1"}, dir);
  INFO(fallBack.err);
  CHECK(fallBack.code == 0);
  CHECK_THAT(fallBack.err, Catch::Contains("(it holds no compile_commands.json)"));
}

TEST_CASE("culift -p never lends a file the database does not list another entry's flags", "[cli]") {
  TempDir dir;
  // The database lists only a.cpp, with -DNDEBUG and a warning option Clang does not know.
  writeFile(dir.file("a.cpp"), "int main() { return 0; }\n");
  writeFile(dir.file("compile_commands.json"),
            "[{\"directory\": \"" + dir.path() +
                "\", \"command\": \"/usr/bin/c++ -std=c++17 -DNDEBUG -DFROM_DB=3 -Wno-restrict -c a.cpp\", "
                "\"file\": \"a.cpp\"}]\n");
  writeFile(dir.file("k.cpp"),
            "#include <culift/annotate.hpp>\n#include <cassert>\n"
            "#ifdef NDEBUG\n#error NDEBUG borrowed\n#endif\n"
            "CULIFT_KERNEL float Inv(float x) { assert(x != 0.0f); return 1.0f / x; }\n");
  Run r = runCulift({"ast", dir.file("k.cpp"), "-p", dir.path()}, dir);
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.err, Catch::Contains("warning: " + dir.file("k.cpp") + " is not listed in " + dir.path() +
                                    "/compile_commands.json: it is compiled with -std=c++20"));
  CHECK_THAT(r.err, !Catch::Contains("-Wno-restrict"));
  CHECK_THAT(r.out, Catch::Contains("assert("));
}

TEST_CASE("culift: a warning about the command line is printed once", "[cli]") {
  TempDir dir;
  writeFile(dir.file("k.cpp"), kKernels);
  Run r = runCulift({"emit", dir.file("k.cpp"), "-o", dir.file("k.cu"), "--", "-Wno-restrict"}, dir);
  CHECK(r.code == 0);
  const std::string warning = "warning: unknown warning option '-Wno-restrict'";
  const std::size_t first = r.err.find(warning);
  CHECK(first != std::string::npos);
  CHECK(r.err.find(warning, first + 1) == std::string::npos);
}

TEST_CASE("culift ast and emit: --function names a template's instances", "[cli]") {
  TempDir dir;
  writeFile(dir.file("t.cpp"),
            "#include <culift/annotate.hpp>\n"
            "namespace ops {\n"
            "template <typename T> CULIFT_KERNEL T Clip(T x, T lo, T hi) { return x < lo ? lo : (hi < x ? hi : x); }\n"
            "template float Clip<float>(float, float, float);\n"
            "template unsigned Clip<unsigned>(unsigned, unsigned, unsigned);\n"
            "template <typename T> T Half(T x) { return x / T(2); }\n"
            "template double Half<double>(double);\n"
            "}\n");
  Run listed = runCulift({"ast", dir.file("t.cpp")}, dir);
  REQUIRE(listed.code == 0);
  CHECK_THAT(listed.out, Catch::Contains("function Clip_float\n"));
  CHECK_THAT(listed.out, Catch::Contains("function Clip_unsigned_int\n"));
  for (const char* name : {"Clip_float", "Clip<float>", "ops::Clip<float>", "ops::Clip< float >"}) {
    Run one = runCulift({"ast", dir.file("t.cpp"), "--function", name}, dir);
    INFO(name << ": " << one.err);
    CHECK(one.code == 0);
    CHECK_THAT(one.out, Catch::Contains("function Clip_float\n"));
    CHECK_THAT(one.out, !Catch::Contains("function Clip_unsigned_int"));
  }
  Run unsignedOne = runCulift({"emit", dir.file("t.cpp"), "--function", "Clip<unsigned int>"}, dir);
  CHECK(unsignedOne.code == 0);
  CHECK_THAT(unsignedOne.out, Catch::Contains("Clip_unsigned_int_kernel"));
  // The template's name: every explicit instance, not a hint to write one.
  Run all = runCulift({"ast", dir.file("t.cpp"), "--function", "Clip"}, dir);
  INFO(all.err);
  CHECK(all.code == 0);
  CHECK_THAT(all.out, Catch::Contains("function Clip_float\n"));
  CHECK_THAT(all.out, Catch::Contains("function Clip_unsigned_int\n"));
  CHECK_THAT(all.err, !Catch::Contains("instantiate"));
  // An unannotated template is picked the same way.
  Run half = runCulift({"ast", dir.file("t.cpp"), "--function", "Half"}, dir);
  INFO(half.err);
  CHECK(half.code == 0);
  CHECK_THAT(half.out, Catch::Contains("function Half_double\n  index mode: ElementWise\n"));
  Run missing = runCulift({"ast", dir.file("t.cpp"), "--function", "Clip_double"}, dir);
  CHECK(missing.code == 1);
  CHECK_THAT(missing.err, Catch::Contains("no function named 'Clip_double'"));
}

TEST_CASE("culift ast: an array of structs shows its struct type in the signature", "[cli]") {
  TempDir dir;
  writeFile(dir.file("s.cpp"),
            "#include <culift/annotate.hpp>\n"
            "struct Vec3 { float x, y, z; };\n"
            "CULIFT_KERNEL float Norm(const Vec3* v, int i) { return v[i].x * v[i].x + v[i].y; }\n"
            "CULIFT_KERNEL void Move(const Vec3* in, Vec3* out, int i) { out[i] = in[i]; }\n");
  Run r = runCulift({"ast", dir.file("s.cpp")}, dir);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("  signature:\n    const Vec3* v  [input array]\n"));
  CHECK_THAT(r.out,
             Catch::Contains("  signature:\n    const Vec3* in  [input array]\n    Vec3* out  [output array]\n"));
}
