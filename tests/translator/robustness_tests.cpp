// Whatever the input, translate() returns diagnostics: no crash, no abort, nothing on stderr,
// on any calling thread.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>

#include "culift/ast/source.hpp"
#include "culift/codegen.hpp"
#include "deep_inputs.hpp"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "small_stack.hpp"
#include "translate_support.hpp"

using namespace culift;

namespace culift::frontend {
std::string_view annotateHeaderText();  // translator/src/frontend/annotate_header.hpp
}

namespace {

// Runs `body` with stderr redirected to a temporary file and returns what was written.
template <typename Body> std::string captureStderr(Body body) {
  std::fflush(stderr);
  char path[] = "/tmp/culift_stderr_XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const int saved = dup(2);
  dup2(fd, 2);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path);
  return text;
}

bool hasError(const TranslateResult& r) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return true;
  return false;
}

}  // namespace

TEST_CASE("an empty file has no kernels: one error with a hint", "[robustness]") {
  TranslateResult r = translateSource("", "empty.cpp");
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message == "no functions annotated with CULIFT_KERNEL in empty.cpp");
  CHECK_THAT(r.diagnostics[0].hint, Catch::Contains("CULIFT_KERNEL float RowSum"));
  CHECK_THAT(r.formatDiagnostics(), Catch::StartsWith("empty.cpp: error: no functions annotated"));
}

TEST_CASE("a file without annotations has no kernels unless functions are picked", "[robustness]") {
  const std::string code =
      "float f(float x) { return x; }\nfloat g(float x) { return x; }\nfloat g(int x) { return x; }\n";
  TranslateResult none = translateSource(code, "plain.cpp");
  REQUIRE_FALSE(none.ok());
  CHECK_THAT(none.diagnostics[0].message, Catch::Contains("no functions annotated"));
  TranslateOptions missing;
  missing.functions = {"nope"};
  TranslateResult notFound = translateSource(code, "plain.cpp", missing);
  REQUIRE_FALSE(notFound.ok());
  CHECK(notFound.diagnostics[0].message == "no function named 'nope' in plain.cpp");
  TranslateOptions overloaded;
  overloaded.functions = {"g"};
  TranslateResult ambiguous = translateSource(code, "plain.cpp", overloaded);
  REQUIRE_FALSE(ambiguous.ok());
  CHECK_THAT(ambiguous.diagnostics[0].message, Catch::Contains("function name 'g' is ambiguous"));
  TranslateOptions picked;
  picked.functions = {"f"};
  CHECK(translateSource(code, "plain.cpp", picked).ok());
}

TEST_CASE("a missing file is a diagnostic, not an exception", "[robustness]") {
  TranslateResult r = translate("/nonexistent/dir/kernel.cpp");
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK_THAT(r.diagnostics[0].message, Catch::Contains("cannot read '/nonexistent/dir/kernel.cpp'"));
}

TEST_CASE("garbage bytes produce diagnostics and nothing on stderr", "[robustness]") {
  std::mt19937 random(1234);
  for (int round = 0; round < 8; ++round) {
    std::string bytes(4096, '\0');
    for (char& c : bytes) c = static_cast<char>(random() & 0xFF);
    if (round % 2) bytes = "#include <culift/annotate.hpp>\nCULIFT_KERNEL float f(float x) {" + bytes;
    TranslateResult r;
    const std::string err = captureStderr([&] { r = translateSource(bytes, "garbage.cpp"); });
    CHECK(err.empty());
    CHECK_FALSE(r.ok());
    CHECK(hasError(r));
  }
}

TEST_CASE("Clang's errors are all returned and nothing is lifted after them", "[robustness]") {
  TranslateResult r = culift::test::lift("CULIFT_KERNEL int f(int i) { return a + b + i; }");
  REQUIRE_FALSE(r.ok());
  int errors = 0;
  for (const Diagnostic& d : r.diagnostics) errors += d.severity == Severity::Error;
  CHECK(errors == 2);
  CHECK(r.diagnostics[0].loc.file == "snippet.cpp");
  CHECK(r.diagnostics[0].loc.line == 2);
}

TEST_CASE("a large file (10 MB) translates without trouble", "[robustness]") {
  std::string code = "#include <culift/annotate.hpp>\n";
  int n = 0;
  while (code.size() < 10u * 1024 * 1024)
    code += "inline float helper" + std::to_string(n++) + "(float x) { return x * 2.0f + 1.0f; }\n";
  code += "CULIFT_KERNEL float f(float x) { return helper7(x); }\n";
  TranslateResult r = translateSource(code, "large.cpp");
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  CHECK(r.module->functions.size() == 2);
}

TEST_CASE("translateSource works with #include <cmath> and any file extension", "[robustness]") {
  for (const char* name : {"k.cpp", "k.hpp", "k.h", "k.txt", "k"}) {
    TranslateResult r = translateSource(
        "#pragma once\n#include <cmath>\n#include <culift/annotate.hpp>\nCULIFT_KERNEL float f(float x) { return std::sqrt(x); }",
        name);
    INFO(name << "\n" << r.formatDiagnostics());
    CHECK(r.ok());
    CHECK(r.diagnostics.empty());
  }
}

TEST_CASE("compiler arguments reach Clang", "[robustness]") {
  const std::string code = "#include <culift/annotate.hpp>\nCULIFT_KERNEL int f(int i) { return N * i; }";
  CHECK_FALSE(translateSource(code, "args.cpp").ok());
  TranslateOptions options;
  options.compilerArgs = {"-DN=4"};
  TranslateResult r = translateSource(code, "args.cpp", options);
  REQUIRE(r.ok());
  CHECK(culift::test::body(r, "f") == "{ (Return (* i32 (Int i32 4) (Var i))) }");
  TranslateOptions bad;
  bad.compilerArgs = {"--definitely-not-a-clang-flag"};
  TranslateResult rejected = translateSource(code, "args.cpp", bad);
  CHECK_FALSE(rejected.ok());
  CHECK_THAT(rejected.formatDiagnostics(), Catch::Contains("definitely-not-a-clang-flag"));
}

TEST_CASE("the embedded annotation header matches include/culift/annotate.hpp", "[robustness]") {
  std::ifstream in(std::string(CULIFT_SOURCE_DIR) + "/include/culift/annotate.hpp");
  REQUIRE(in);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(culift::frontend::annotateHeaderText() == text);
}

TEST_CASE("the Clang resource directory exists and holds the builtin headers", "[robustness]") {
  const std::string dir = findClangResourceDir();
  CHECK(llvm::sys::fs::is_directory(dir));
  CHECK(llvm::sys::fs::exists(dir + "/include/stddef.h"));
}

// A host app may call translate() from a pool thread with 512 KB of stack: deep input must get
// the same clean diagnostic there as on the main thread, not a crash before the limit reports.
TEST_CASE("deeply nested input is a clean diagnostic on a thread with a 512 KB stack", "[robustness][stack]") {
  for (const test::DeepInput& input : test::rejectedDeepInputs()) {
    DYNAMIC_SECTION(input.name) {
      TranslateResult r;
      test::onSmallStack([&] { r = translateSource(input.source, input.name); });
      INFO(r.formatDiagnostics().substr(0, 2000));
      REQUIRE_FALSE(r.ok());
      const auto first = std::find_if(r.diagnostics.begin(), r.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.severity == Severity::Error; });
      REQUIRE(first != r.diagnostics.end());
      CHECK_THAT(first->message, Catch::Contains(input.error));
      CHECK(first->loc.file == input.name);
      CHECK(first->loc.line == input.line);
      // A nesting limit is reported once, at the outermost node beyond it.
      if (input.error.find("nested too deeply") != std::string::npos) CHECK(r.diagnostics.size() == 1);
    }
  }
}

// The deepest input the limits let through: translated, emitted again and written as
// pseudocode by the host thread (the emitter is public API too), and dropped there.
TEST_CASE("deep input inside the limits translates and emits on a thread with a 512 KB stack", "[robustness][stack]") {
  for (const test::DeepInput& input : test::acceptedDeepInputs()) {
    DYNAMIC_SECTION(input.name) {
      bool ok = false;
      std::string diagnostics, translatedCuda, emittedCuda, pseudocode;
      test::onSmallStack([&] {
        TranslateResult r = translateSource(input.source, input.name);
        ok = r.ok();
        diagnostics = r.formatDiagnostics();
        if (!ok) return;
        translatedCuda = r.module->cudaSource;
        emittedCuda = emitCuda(*r.module);
        pseudocode = writePseudocode(*r.module, *r.module->find("f"));
      });
      INFO(diagnostics);
      REQUIRE(ok);
      CHECK(diagnostics.empty());
      CHECK_THAT(translatedCuda, Catch::Contains("__device__ int f(int a) {"));
      CHECK(emittedCuda == translatedCuda);
      CHECK_THAT(pseudocode, Catch::Contains("int f(int a) {"));
    }
  }
}
