// Diagnostic tests in Clang's style: every file in diagnostics/ marks each offending line with
// `// expected-error {{part of the message}}` (or `expected-error@+N` / `@-N` for another
// line). The file is translated once; the errors reported must be exactly the expected ones.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "temp_files.hpp"
#include "translate_support.hpp"

using namespace culift;

namespace {

const std::string kDiagnosticsDir = std::string(CULIFT_SOURCE_DIR) + "/tests/translator/diagnostics";

struct Expectation {
  unsigned line;
  std::string text;
  bool matched = false;
};

std::vector<Expectation> parseExpectations(const std::string& path) {
  std::ifstream in(path);
  std::vector<Expectation> out;
  static const std::regex kMarker(R"(expected-error(@([+-]\d+))?\s*\{\{(.*?)\}\})");
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n) {
    for (std::sregex_iterator it(line.begin(), line.end(), kMarker), end; it != end; ++it) {
      const int offset = (*it)[2].matched ? std::stoi((*it)[2].str()) : 0;
      out.push_back({static_cast<unsigned>(static_cast<int>(n) + offset), (*it)[3].str()});
    }
  }
  return out;
}

std::vector<std::string> diagnosticFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kDiagnosticsDir))
    if (entry.path().extension() == ".cpp") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Checks one file; returns a description of every mismatch (empty when all match).
std::string check(const std::string& path) {
  std::vector<Expectation> expected = parseExpectations(path);
  TranslateResult r = translate(path);
  std::ostringstream problems;
  if (expected.empty()) problems << "no expected-error markers in the file\n";
  if (r.ok()) problems << "translation succeeded but errors were expected\n";
  for (const Diagnostic& d : r.diagnostics) {
    if (d.severity != Severity::Error) continue;
    if (d.loc.file != path) problems << "error in another file: " << d.format();
    auto it = std::find_if(expected.begin(), expected.end(), [&](const Expectation& e) {
      return !e.matched && e.line == d.loc.line && d.message.find(e.text) != std::string::npos;
    });
    if (it == expected.end()) {
      problems << "unexpected error:\n" << d.format();
      continue;
    }
    it->matched = true;
  }
  for (const Expectation& e : expected)
    if (!e.matched) problems << "expected error not reported: line " << e.line << ": {{" << e.text << "}}\n";
  if (!problems.str().empty()) problems << "--- all diagnostics ---\n" << r.formatDiagnostics();
  return problems.str();
}

}  // namespace

TEST_CASE("every diagnostics/*.cpp reports exactly its expected errors, all in one run", "[diagnostics]") {
  const std::vector<std::string> files = diagnosticFiles();
  REQUIRE(files.size() >= 15);
  for (const std::string& path : files) {
    DYNAMIC_SECTION(std::filesystem::path(path).filename().string()) {
      const std::string problems = check(path);
      INFO(problems);
      CHECK(problems.empty());
    }
  }
}

TEST_CASE("diagnostics are formatted as file:line:col: error: with the source line and a caret", "[diagnostics]") {
  const std::string path = kDiagnosticsDir + "/recursion.cpp";
  TranslateResult r = translate(path);
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 3);
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.loc.line == 6);
  CHECK(d.loc.column == 14);
  CHECK(d.hint == "recursion is not supported on the device: pass the depth as a loop bound");
  const std::string text = d.format();
  CHECK_THAT(text, Catch::StartsWith(path + ":6:14: error: recursive call to 'factorial'\n"));
  CHECK_THAT(text,
             Catch::Contains("\n  return n * factorial(n - 1);  // expected-error {{recursive call to 'factorial'}}\n"
                             "             ^\n"));
  CHECK_THAT(text, Catch::EndsWith("note: recursion is not supported on the device: pass the depth as a loop bound\n"));
  // Every error carries its line, also those found by Clang itself.
  TranslateResult clangErrors = translate(kDiagnosticsDir + "/clang_errors.cpp");
  REQUIRE(clangErrors.diagnostics.size() >= 2);
  for (const Diagnostic& e : clangErrors.diagnostics) {
    if (e.severity != Severity::Error) continue;
    CHECK_FALSE(e.sourceLine.empty());
    CHECK_THAT(e.format(),
               Catch::Contains(":" + std::to_string(e.loc.line) + ":" + std::to_string(e.loc.column) + ": error: "));
  }
}

TEST_CASE("colored diagnostics use ANSI escapes", "[diagnostics]") {
  TranslateResult r = translate(kDiagnosticsDir + "/asm.cpp");
  REQUIRE_FALSE(r.ok());
  CHECK_THAT(r.formatDiagnostics(true), Catch::Contains("\x1b[1;31merror: "));
  CHECK_THAT(r.formatDiagnostics(false), !Catch::Contains("\x1b["));
}

TEST_CASE("the recursion hint and the pointer hint are given", "[diagnostics]") {
  TranslateResult r = translate(kDiagnosticsDir + "/pointers.cpp");
  REQUIRE_FALSE(r.ok());
  bool sawIndexHint = false;
  for (const Diagnostic& d : r.diagnostics)
    sawIndexHint = sawIndexHint || d.hint == "index the array instead: x[i * cols + k]";
  CHECK(sawIndexHint);
}

TEST_CASE("a build directory without compile_commands.json is a warning, and the file is compiled without it",
          "[diagnostics]") {
  // TranslateOptions::buildDir = "build" in a project not configured yet: the translation goes on.
  test::TempDir dir("culift-nodb");
  test::writeFile(dir.file("k.cpp"),
                  "#include <culift/annotate.hpp>\nCULIFT_KERNEL float Twice(float x) { return x + x; }\n");
  TranslateOptions options;
  options.buildDir = dir.path();
  TranslateResult r = translate(dir.file("k.cpp"), options);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].severity == Severity::Warning);
  CHECK(r.diagnostics[0].message == "no compilation database in '" + dir.path() +
                                        "' (it holds no compile_commands.json): " + dir.file("k.cpp") +
                                        " is compiled with -std=c++20 and the compiler arguments given");
  CHECK(r.module->find("Twice"));
}

TEST_CASE("the picked names say which functions they named", "[diagnostics]") {
  const char* source =
      "#include <culift/annotate.hpp>\n"
      "template <typename T> CULIFT_KERNEL T Clip(T x, T lo, T hi) { return x < lo ? lo : (hi < x ? hi : x); }\n"
      "template float Clip<float>(float, float, float);\n"
      "template int Clip<int>(int, int, int);\n"
      "float Plain(float a) { return a; }\n";
  TranslateOptions options;
  options.functions = {"Clip", "Clip<int>", "Plain"};
  TranslateResult r = translateSource(source, "pick.cpp", options);
  INFO(r.formatDiagnostics());
  REQUIRE(r.ok());
  REQUIRE(r.picked.size() == 3);
  CHECK(r.picked[0] == std::vector<std::string>{"Clip_float", "Clip_int"});
  CHECK(r.picked[1] == std::vector<std::string>{"Clip_int"});
  CHECK(r.picked[2] == std::vector<std::string>{"Plain"});
}
